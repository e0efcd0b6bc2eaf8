// The least a server can do per live stream on this stack (bench only): node:http with no
// framework, no database and no application state.
//
// Memory (bench/sections/live-streams-floor.mjs): per stream the three connections the service
// holds: the client's streamed answer (POST /chat, passing the model's bytes straight through,
// read with fetch as the openai SDK does), the follower's (GET /follow, written to every
// STREAM_FLUSH_MS) and the model's (fetch). No parsing, no text kept.
//
// Latency (bench/sections/live-streams.mjs --script=bench/lib/stream-floor-server.mjs): the
// service's two routes of section 11 with the work no server can skip: POST /api/chat/stream
// reads the model's stream (fetch, eventsource-parser, JSON.parse of each chunk) and writes each
// delta to its client as the service's `delta` event, one socket write a delta; the reply's
// follower (GET /api/conversations/:id/messages/:id/stream) gets the new text every
// STREAM_FLUSH_MS. What the service adds on top (storing, the lease, the request pipeline) is
// the difference between the two runs.
import http from 'node:http';
import { createParser } from 'eventsource-parser';

const modelUrl = process.env.FLOOR_MODEL_URL ?? `${process.env.LLM_BASE_URL}/chat/completions`;
const flushMs = Number(process.env.STREAM_FLUSH_MS ?? 200);
const FOLLOWER = /^\/api\/conversations\/([^/]+)\/messages\/([^/]+)\/stream$/;
/** Replies being generated, by id, with their text so far (for their followers). */
const replies = new Map();
let nextId = 0;

const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

const server = http.createServer(async (req, res) => {
  if (req.url === '/health') return res.end('ok');
  if (req.url === '/metrics') return res.end('');
  if (req.url === '/follow') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write('event: delta\ndata: {"text":"."}\n\n'), 200);
    res.on('close', () => clearInterval(timer));
    return;
  }
  const follower = FOLLOWER.exec(req.url ?? '');
  if (follower) return follow(replies.get(follower[2]), res);
  for await (const _ of req);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (req.url === '/api/chat/stream') return generate(res);
  try {
    const answer = await fetch(modelUrl, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    for await (const bytes of answer.body) res.write(bytes);
  } catch {
    /* the bench ends streams by closing them */
  }
  res.end();
});

/** A streamed turn: each of the model's deltas to the client at once, kept for the follower. */
async function generate(res) {
  const id = `floor-${(nextId += 1)}`;
  const reply = { pieces: [], length: 0, done: false };
  replies.set(id, reply);
  res.write(event('conversation', { conversationId: id, messageId: id }));
  const parser = createParser({
    onEvent: ({ data }) => {
      if (data === '[DONE]') return;
      const text = JSON.parse(data).choices?.[0]?.delta?.content;
      if (!text) return;
      reply.pieces.push(text);
      reply.length += text.length;
      res.write(event('delta', { text }));
    },
  });
  try {
    const answer = await fetch(modelUrl, {
      method: 'POST',
      body: '{"stream":true}',
      headers: { 'content-type': 'application/json' },
    });
    const decoder = new TextDecoder();
    for await (const bytes of answer.body) parser.feed(decoder.decode(bytes, { stream: true }));
    res.end(event('done', { length: reply.length }));
  } catch {
    res.end();
  } finally {
    reply.done = true;
    // Its follower sees the end on its next tick; then the reply is let go.
    setTimeout(() => replies.delete(id), 2 * flushMs).unref();
  }
}

/** The follower's answer: the reply's new text on every tick, as the service's followers get it. */
function follow(reply, res) {
  if (!reply) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let sent = 0;
  const tick = setInterval(() => {
    if (reply.pieces.length > sent) {
      res.write(event('delta', { text: reply.pieces.slice(sent).join('') }));
      sent = reply.pieces.length;
    }
    if (reply.done) {
      clearInterval(tick);
      res.end(event('done', {}));
    }
  }, flushMs);
  res.on('close', () => clearInterval(tick));
}

server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
