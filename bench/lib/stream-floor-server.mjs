// The least a server can hold per live stream on this stack (bench only; see
// bench/sections/live-streams-floor.mjs): node:http with no framework, and per stream the
// three connections the service holds: the client's streamed answer (POST /chat, passing the
// model's bytes straight through, read with fetch as the openai SDK does), the follower's
// (GET /follow, written to every STREAM_FLUSH_MS) and the model's (fetch). No database, no
// parsing, no text kept.
import http from 'node:http';

const modelUrl = process.env.FLOOR_MODEL_URL;
const server = http.createServer(async (req, res) => {
  if (req.url === '/health') return res.end('ok');
  if (req.url === '/follow') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write('event: delta\ndata: {"text":"."}\n\n'), 200);
    res.on('close', () => clearInterval(timer));
    return;
  }
  for await (const _ of req);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
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
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
