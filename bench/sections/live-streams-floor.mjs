// The floor under section 11's memory per live stream: bench/lib/stream-floor-server.mjs holds,
// per stream, the same three connections as the service (the client's streamed answer, a
// follower's, and a fetch of the model's stream) with node:http, fetch and nothing else. Its heap
// and RSS right after a full collection (bench/lib/heap-probe.mjs), idle and with N live streams,
// per stream: what this stack costs before any framework, SDK or application state.
// `node bench/sections/live-streams-floor.mjs [--streams=500,1000]` (about 30 s a level).
import http from 'node:http';
import { join } from 'node:path';
import { BENCH_DIR, freePort, HOST, request, round, sleep, startServer } from '../lib/common.mjs';

async function startModel() {
  const open = new Set();
  const server = http.createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    open.add(res);
    const timer = setInterval(
      () => res.write('data: {"choices":[{"index":0,"delta":{"content":"@1.00 "}}]}\n\n'),
      1000,
    );
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, HOST, r));
  return {
    url: `http://${HOST}:${server.address().port}/v1/chat/completions`,
    open,
    close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))),
  };
}

function hold(port, method, path, opened) {
  const req = http.request({ host: HOST, port, method, path, agent: false }, (res) => {
    opened();
    res.resume();
  });
  req.on('error', () => undefined);
  req.end(method === 'POST' ? '{}' : undefined);
  return req;
}

async function level(model, streams) {
  const probePort = await freePort();
  const server = await startServer({
    label: `floor-${streams}`,
    script: join(BENCH_DIR, 'lib', 'stream-floor-server.mjs'),
    nodeArgs: ['--expose-gc', '--import', join(BENCH_DIR, 'lib', 'heap-probe.mjs')],
    env: { FLOOR_MODEL_URL: model.url, HEAP_PROBE_PORT: String(probePort) },
  });
  const held = [];
  try {
    const probe = async () => (await request(probePort, 'GET', '/', undefined, 60_000)).body;
    // Warm up what loads lazily (fetch, the parser), then the idle figure.
    let warm = 0;
    const warmers = Array.from({ length: 4 }, () => hold(server.port, 'POST', '/chat', () => (warm += 1)));
    while (warm < 4) await sleep(20);
    await sleep(1500);
    warmers.forEach((r) => r.destroy());
    await sleep(1000);
    const idle = await probe();
    let opened = 0;
    for (let i = 0; i < streams; i += 100) {
      for (let j = i; j < Math.min(streams, i + 100); j++) {
        held.push(hold(server.port, 'POST', '/chat', () => (opened += 1)));
        held.push(hold(server.port, 'GET', '/follow', () => (opened += 1)));
      }
      while (opened < Math.min(streams, i + 100) * 2) await sleep(20);
    }
    while (model.open.size < streams) await sleep(20);
    await sleep(3000);
    const live = await probe();
    const per = (field) => round((live[field] - idle[field]) / streams / 1024, 1);
    return {
      streams,
      heapPerStreamKiB: per('heapUsed'),
      externalPerStreamKiB: per('external'),
      rssPerStreamKiB: per('rss'),
      idleHeapMiB: round(idle.heapUsed / 2 ** 20, 1),
      idleRssMiB: round(idle.rss / 2 ** 20, 1),
    };
  } finally {
    held.forEach((r) => r.destroy());
    await server.stop();
  }
}

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const model = await startModel();
try {
  for (const streams of (arg('streams') ?? '500,1000').split(',').map(Number)) {
    const r = await level(model, streams);
    console.log(
      `  floor ${String(streams).padStart(5)} streams (node:http + fetch, three connections a stream): after GC heap ${r.heapPerStreamKiB}, external ${r.externalPerStreamKiB}, RSS ${r.rssPerStreamKiB} KiB/stream (idle heap ${r.idleHeapMiB} MiB, RSS ${r.idleRssMiB} MiB)`,
    );
  }
} finally {
  await model.close();
}
process.exit(0);
