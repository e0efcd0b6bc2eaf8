// Opt-in section (`--only=stalled-streams`): what clients that stop reading a streamed reply cost
// the server. N clients each start POST /api/chat/stream, read the first bytes, then read nothing
// more, while a fake OpenAI-compatible model streams a long reply to each. Reports the server's
// RSS (start, peak, once every reply is stored) and how many connections the server cut.
// Standalone: `node bench/sections/stalled-streams.mjs [--script=dist/src/main.js] [--reading]`
// (`--reading`: the same clients reading everything, the cost of the replies themselves).
import http from 'node:http';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST_MAIN, HOST, memoryOf, request, sleep, startServer, tempDir } from '../lib/common.mjs';

/** The longest reply the service may store (the ceiling of MAX_REPLY_CHARS). */
const REPLY_CHARS = 1_000_000;

/**
 * A model that streams about `replyMiB` MiB of server-sent events per request, in pieces of 16 K
 * characters, honouring backpressure. A reply is at most MAX_REPLY_CHARS (1,000,000 here), so the
 * text is a control character, which each event carries JSON-escaped in 6 bytes: 1,000,000
 * characters are about 6 MiB of events.
 */
async function startFakeModel(replyMiB) {
  const piece = '\u0007'.repeat(16 * 1024);
  const pieces = Math.min(
    Math.floor(REPLY_CHARS / piece.length),
    Math.round((replyMiB * 1024 * 1024) / (6 * piece.length)),
  );
  const model = { finished: 0, replyChars: pieces * piece.length };
  const server = http.createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, finish = null, extra = {}) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    for (let i = 0; i < pieces; i++) {
      if (!res.write(chunk({ content: piece }))) await new Promise((r) => res.once('drain', r));
    }
    res.write(chunk({}, 'stop'));
    res.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [], usage: { prompt_tokens: 10, completion_tokens: pieces * 4000, total_tokens: 10 + pieces * 4000 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
    model.finished += 1;
  });
  await new Promise((r) => server.listen(0, HOST, r));
  return Object.assign(model, {
    url: `http://${HOST}:${server.address().port}/v1`,
    close: () => new Promise((r) => server.close(r)),
  });
}

/** POST /api/chat/stream over a raw socket; after the first bytes it stops reading (unless `reading`). */
function client(port, reading) {
  const socket = connect({ host: HOST, port });
  const body = JSON.stringify({ message: 'a long story, please' });
  socket.write(
    `POST /api/chat/stream HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  const state = { conversationId: null, closed: false, tail: '', seen: '' };
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  socket.on('data', (chunk) => {
    state.tail = (state.tail + chunk.toString('latin1')).slice(-16);
    // The headers can come alone: read on until the conversation event names the reply.
    if (state.conversationId === null) {
      state.seen += chunk.toString('latin1');
      state.conversationId = /"conversationId":"([0-9a-f-]{36})"/.exec(state.seen)?.[1] ?? null;
      if (state.conversationId !== null && !reading) socket.pause();
    }
  });
  return { state, resume: () => socket.resume(), destroy: () => socket.destroy() };
}

export async function stalledStreams(
  { clients = 10, replyMiB = 20, script = DIST_MAIN, reading = false, env = {} } = {},
  log = console.log,
) {
  const model = await startFakeModel(replyMiB);
  const tmp = tempDir('stalled');
  const server = await startServer({
    label: 'service',
    script,
    env: {
      DATABASE_URL: `sqlite:${join(tmp.dir, 'stalled.sqlite')}`,
      LLM_BASE_URL: model.url,
      LLM_MODEL: 'fake',
      LLM_API_KEY: 'x',
      SUMMARY_MODE: 'off',
      // Each progress save writes the whole text so far: fewer of them for replies this long.
      STREAM_FLUSH_MS: '1000',
      // All clients are the single user here; the point is the buffers, not the per-actor cap.
      MAX_STREAMS_PER_ACTOR: '0',
      MAX_GENERATIONS_PER_ACTOR: '0',
      MAX_GENERATIONS: '0',
      MAX_REPLY_CHARS: String(REPLY_CHARS),
      ...env,
    },
  });
  const all = [];
  try {
    await sleep(500);
    const start = memoryOf(server.pid).rssMiB;
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(server.pid).rssMiB ?? 0)), 200);
    for (let i = 0; i < clients; i++) all.push(client(server.port, reading));
    const deadline = Date.now() + 300_000;
    // The model has sent every reply; the final save follows at once (checked below, after measuring).
    while (model.finished < clients) {
      if (Date.now() > deadline) throw new Error('the model did not finish all replies within 300 s');
      await sleep(500);
    }
    await sleep(3000);
    clearInterval(sampler);
    const stored = memoryOf(server.pid).rssMiB;
    // Reading the replies back costs memory too: only now.
    let complete = 0;
    const notWhole = [];
    for (const c of all) {
      for (;;) {
        const page = (
          await request(
            server.port,
            'GET',
            `/api/conversations/${c.state.conversationId}/messages?limit=1`,
            undefined,
            60_000,
          )
        ).body;
        const reply = page?.items?.at(-1);
        // The last saves of long replies can still be under way on a busy machine.
        if (reply?.status === 'streaming' && Date.now() < deadline) {
          await sleep(1000);
          continue;
        }
        if (reply?.status === 'complete' && reply.content.length === model.replyChars) complete += 1;
        else
          notWhole.push({
            status: reply?.status,
            error: reply?.errorMessage ?? reply?.error ?? null,
            chars: reply?.content?.length,
          });
        break;
      }
    }
    // Read on: a connection the server cut ends without the chunked answer's last, empty chunk.
    all.forEach((c) => c.resume());
    const readDeadline = Date.now() + 60_000;
    while (all.some((c) => !c.state.closed) && Date.now() < readDeadline) await sleep(200);
    const result = {
      clients,
      replyMiB,
      reading,
      rssStartMiB: Math.round(start),
      rssPeakMiB: Math.round(Math.max(peak, stored)),
      rssStoredMiB: Math.round(stored),
      growthMiB: Math.round(stored - start),
      cutByServer: all.filter((c) => c.state.closed && !c.state.tail.endsWith('\r\n0\r\n\r\n')).length,
      repliesStoredWhole: complete,
      notWhole,
    };
    log(
      `  ${clients} ${reading ? 'reading' : 'stalled'} clients, ${replyMiB} MiB replies: RSS ${result.rssStartMiB} -> peak ${result.rssPeakMiB}, ${result.rssStoredMiB} MiB once stored (+${result.growthMiB}); connections cut by the server: ${result.cutByServer}; replies stored whole: ${complete}/${clients}`,
    );
    return result;
  } finally {
    all.forEach((c) => c.destroy());
    await server.stop();
    await model.close();
    tmp.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const result = await stalledStreams({
    script: arg('script') ? resolve(arg('script')) : DIST_MAIN,
    reading: process.argv.includes('--reading'),
    clients: Number(arg('clients') ?? 10),
    replyMiB: Number(arg('reply-mib') ?? 20),
  });
  console.log(JSON.stringify(result));
}
