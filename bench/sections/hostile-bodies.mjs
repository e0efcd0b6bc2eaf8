// Opt-in section (--only=hostile-bodies): what bodies made to be expensive cost everyone else.
// Each round sends `concurrent` POST /api/chat bodies of 1 MB with 90,000 unknown keys, while
// GET /health is asked every 20 ms; it reports the time to refuse one such body, the size of the
// refusal, and how long /health waited (the event loop is blocked while a body is handled).
import http from 'node:http';
import { join } from 'node:path';
import { DIST_MAIN, HOST, percentile, round, sleep, startServer, tempDir, withServerLog } from '../lib/common.mjs';

/** `script` lets a run compare another build (e.g. the previous commit's dist/src/main.js). */
export async function hostileBodies({ rounds = 3, concurrent = 4, keys = 90_000, script = DIST_MAIN } = {}) {
  const tmp = tempDir('hostile');
  // No API_KEYS on 127.0.0.1: single-user mode, so the body reaches validation.
  const server = await startServer({
    label: 'service',
    script,
    env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'hostile.sqlite')}`, RATE_LIMIT_PER_MINUTE: '0' },
  });
  try {
    return await withServerLog(server, measure(server.port, { rounds, concurrent, keys }));
  } finally {
    await server.stop();
    tmp.remove();
  }
}

async function measure(port, { rounds, concurrent, keys }) {
  const body = { message: 'hi' };
  for (let i = 0; i < keys; i++) body[`k${i}`] = 1;
  const payload = Buffer.from(JSON.stringify(body));
  const idle = await healthLatencies(port, () => sleep(2_000));
  const refusals = [];
  const busy = await healthLatencies(port, async () => {
    for (let r = 0; r < rounds; r++) {
      refusals.push(...(await Promise.all(Array.from({ length: concurrent }, () => post(port, payload)))));
    }
  });
  const ms = refusals.map((x) => x.ms).sort((a, b) => a - b);
  return {
    bodyBytes: payload.length,
    keys,
    requests: refusals.length,
    statuses: [...new Set(refusals.map((x) => x.status))],
    refusalBytes: Math.max(...refusals.map((x) => x.bytes)),
    refusalMs: { p50: round(percentile(ms, 50), 1), max: round(ms.at(-1), 1) },
    healthIdleMs: idle,
    healthDuringMs: busy,
  };
}

/** GET /health every 20 ms while `during` runs: how many, the median and the longest wait. */
async function healthLatencies(port, during) {
  const samples = [];
  let running = true;
  const poll = (async () => {
    while (running) {
      const t0 = performance.now();
      await new Promise((resolve, reject) =>
        http
          .get({ host: HOST, port, path: '/health', agent: false }, (res) => res.resume().on('end', resolve))
          .on('error', reject),
      );
      samples.push(performance.now() - t0);
      await sleep(20);
    }
  })();
  await during();
  running = false;
  await poll;
  samples.sort((a, b) => a - b);
  return { count: samples.length, p50: round(percentile(samples, 50), 1), max: round(samples.at(-1), 1) };
}

function post(port, payload) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: '/api/chat',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
