// autocannon wrappers: chat turns that resume seeded conversations, and plain GETs.
import autocannon from 'autocannon';
import { HOST, request, summarize } from './common.mjs';

/** A user message of a realistic length (about 60 characters), different on every turn. */
export function userMessage(n) {
  return `Question ${n}: what did we decide about the schedule last time?`;
}

/**
 * Seeds `conversations` conversations of `turns` turns each through POST /api/chat, a few at a
 * time, and returns their ids. Works against the service and the reference server alike.
 */
export async function seedOverHttp(port, { conversations, turns, concurrency = 8 }) {
  const ids = [];
  let n = 0;
  const one = async () => {
    let conversationId;
    for (let t = 0; t < turns; t++) {
      const body = conversationId ? { message: userMessage(n++), conversationId } : { message: userMessage(n++) };
      const res = await request(port, 'POST', '/api/chat', body);
      if (res.status !== 200 || typeof res.body?.conversationId !== 'string') {
        throw new Error(`seeding: POST /api/chat answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      }
      conversationId = res.body.conversationId;
    }
    ids.push(conversationId);
  };
  for (let i = 0; i < conversations; i += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, conversations - i) }, one));
  }
  return ids;
}

/**
 * Runs autocannon against 127.0.0.1:`port`. `body(i)` builds the i-th request body (POST), or
 * none for GET. Bounded by `durationS`, or by `amount` requests and `maxDurationS` seconds.
 * Latencies are sampled per response with sub-millisecond precision (autocannon's own
 * histogram has 1 ms resolution), unless `sampleLatency` is false.
 */
export function load({
  port,
  method = 'GET',
  path,
  body,
  connections = 10,
  durationS,
  amount,
  maxDurationS,
  sampleLatency = true,
  onResponse,
}) {
  return new Promise((resolveLoad, reject) => {
    let i = 0;
    const latencies = [];
    const requests = [
      body
        ? {
            method,
            path,
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => {
              req.body = JSON.stringify(body(i++));
              return req;
            },
          }
        : { method, path },
    ];
    const options = {
      url: `http://${HOST}:${port}`,
      connections,
      pipelining: 1,
      timeout: 30,
      requests,
      ...(amount ? { amount } : { duration: durationS }),
    };
    const instance = autocannon(options, (error, result) => {
      clearTimeout(cap);
      if (error) return reject(error);
      const ok = result['2xx'] ?? 0;
      const duration = result.duration; // seconds, measured by autocannon
      resolveLoad({
        ok,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        durationS: duration,
        perSecond: ok / duration,
        latencyMs: sampleLatency
          ? summarize(latencies)
          : { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average },
        samples: sampleLatency ? latencies : [],
      });
    });
    if (sampleLatency) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
    if (onResponse) instance.on('response', (_client, statusCode) => onResponse(statusCode));
    // Amount mode has no time bound of its own: stop it at maxDurationS whatever it reached.
    const cap = amount && maxDurationS ? setTimeout(() => instance.stop(), maxDurationS * 1000) : undefined;
  });
}

/**
 * Runs `slices` short loads against each target in turn (A B, B A, A B…) and adds each
 * target's slices up. Noise that drifts over seconds (other work on the machine, page cache,
 * the disk's fsync time) then falls on every target alike, which a ratio needs.
 */
export async function interleaved(targets, { slices, sliceS }) {
  const parts = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  const names = Object.keys(targets);
  for (let s = 0; s < slices; s++) {
    const order = s % 2 === 0 ? names : [...names].reverse();
    for (const name of order) parts[name].push(await targets[name](sliceS));
  }
  return Object.fromEntries(
    names.map((name) => {
      const runs = parts[name];
      const ok = runs.reduce((a, x) => a + x.ok, 0);
      const durationS = runs.reduce((a, x) => a + x.durationS, 0);
      return [
        name,
        {
          ok,
          non2xx: runs.reduce((a, x) => a + x.non2xx, 0),
          errors: runs.reduce((a, x) => a + x.errors, 0),
          timeouts: runs.reduce((a, x) => a + x.timeouts, 0),
          durationS,
          perSecond: ok / durationS,
          latencyMs: summarize(runs.flatMap((x) => x.samples)),
          slicesPerSecond: runs.map((x) => x.perSecond),
        },
      ];
    }),
  );
}
