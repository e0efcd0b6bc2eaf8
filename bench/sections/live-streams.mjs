// Opt-in section (`--only=live-streams`): many replies streaming at once. A fake OpenAI-compatible
// model in this process streams `tokensPerS` tokens a second to each reply, each token stamped with
// the moment it was written (`@<performance.now()> `); N streamed turns (POST /api/chat/stream) run
// at once on one built server, each with one follower (GET …/messages/:id/stream) on a second
// connection. The streams open in slices of 100, the next once the last one's followers are
// connected; the model holds every reply open until all N stream with their followers and the
// window (`replyS`, 10 s) is over. Reports the latency each delta adds between the model writing
// it and a client reading it (p50/p99, streaming client and follower apart), the server's commits
// per second (from /metrics), its CPU (from /proc/<pid>/stat), the ramp's length, and its memory
// per live stream: RSS while streaming − RSS idle, and (bench/lib/heap-probe.mjs) heap, external
// memory and RSS right after a full collection, idle and after the window, per live stream and as
// the slope between levels. Single-user mode, MAX_STREAMS_PER_ACTOR=0, 127.0.0.1 only, bounded in time.
// `--snapshot-dir=<dir>` also writes heap snapshots idle and live (bench/heap-by-constructor.mjs
// compares them); LIVE_STREAMS_TRACE=1 prints the ramp and the server's event-loop delay each second.
// Standalone: `[BENCH_DATABASE_URL=postgres://…] node bench/sections/live-streams.mjs [--levels=100,500] [--reply-s=10] [--workers=2] [--script=<other build>/dist/src/main.js] [--snapshot-dir=<dir>] [--cpu-prof-dir=<dir>]`
// `--script=bench/lib/stream-floor-server.mjs` measures the floor: the least any server does per delta.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  BENCH_DIR,
  DIST_MAIN,
  freePort,
  HOST,
  memoryOf,
  request,
  round,
  sleep,
  startServer,
  summarize,
  tempDir,
} from '../lib/common.mjs';

const TICK_MS = 4;
const RAMP_SLICE = 100;
const RAMP_MS = 250;
/** A slice whose followers have not all connected by then opens the next anyway (a failed one never will). */
const RAMP_WAIT_MS = 30_000;
const STAMP = /@(\d+\.\d+) /g;

/**
 * A model that streams stamped tokens, every reply on its own phase: while the clients connect,
 * one token a second (each reply streams, and its text grows little however long that takes);
 * after `full()`, `tokensPerS`; while `held`, without end; `release()` ends each reply after
 * `tokensPerS` more tokens (one second).
 */
async function startTimedModel({ tokensPerS }) {
  const fast = 1000 / tokensPerS;
  const slow = 1000;
  let period = slow;
  const active = new Set();
  const model = {
    started: 0,
    finished: 0,
    active,
    firstFinishedAt: null,
    allStartedAt: null,
    expected: 0,
    held: true,
    emitted: 0,
  };
  const chunk = (delta, finish = null, extra = {}) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-live', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const ticker = setInterval(() => {
    const now = performance.now();
    for (const s of active) {
      if (s.res.destroyed) {
        active.delete(s);
        continue;
      }
      while (s.left > 0 && s.nextAt <= now) {
        s.res.write(chunk({ content: `@${performance.now().toFixed(2)} ` }));
        s.sent += 1;
        model.emitted += 1;
        if (!model.held) s.left -= 1;
        s.nextAt += period;
      }
      if (s.left === 0) {
        s.res.write(chunk({}, 'stop'));
        s.res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-live', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [], usage: { prompt_tokens: 20, completion_tokens: s.sent, total_tokens: 20 + s.sent } })}\n\n`,
        );
        s.res.end('data: [DONE]\n\n');
        active.delete(s);
        model.finished += 1;
        model.firstFinishedAt ??= performance.now();
      }
    }
  }, TICK_MS);
  const server = http.createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: '' }));
    active.add({ res, left: tokensPerS, sent: 0, nextAt: performance.now() + Math.random() * period });
    model.started += 1;
    if (model.started === model.expected) model.allStartedAt = performance.now();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, HOST, r));
  return Object.assign(model, {
    url: `http://${HOST}:${server.address().port}/v1`,
    reset(expected) {
      Object.assign(model, {
        started: 0,
        finished: 0,
        firstFinishedAt: null,
        allStartedAt: null,
        expected,
        held: true,
        emitted: 0,
      });
      period = slow;
    },
    full() {
      period = fast;
      const now = performance.now();
      for (const s of active) s.nextAt = Math.min(s.nextAt, now + Math.random() * fast);
    },
    release() {
      model.held = false;
    },
    close: () => {
      clearInterval(ticker);
      server.closeAllConnections?.();
      return new Promise((r) => server.close(r));
    },
  });
}

/** Reads server-sent events from `res`, calling `onEvent(name, data)`; `onDone()` when the answer ends. */
function readEvents(res, onEvent, onDone) {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (text) => {
    buffer += text;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onEvent(event, JSON.parse(data));
    }
  });
  res.on('end', onDone);
  res.on('error', onDone);
}

/** Latencies of the stamped tokens in `text` (`carry` holds a token cut between two deltas). */
function stampsOf(state, text, now, since, samples) {
  const all = state.carry + text;
  const cut = all.lastIndexOf(' ') + 1;
  state.carry = all.slice(cut);
  for (const m of all.slice(0, cut).matchAll(STAMP)) {
    const emitted = Number(m[1]);
    state.tokens += 1;
    if (emitted >= since) samples.push([emitted, now - emitted]);
  }
}

function openStream(port, method, path, body, handlers) {
  const payload = body ? JSON.stringify(body) : undefined;
  const req = http.request(
    {
      host: HOST,
      port,
      method,
      path,
      agent: false,
      headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
    },
    (res) => {
      handlers.opened?.(res.statusCode);
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', () => handlers.done(`HTTP ${res.statusCode}`));
        return;
      }
      readEvents(res, handlers.event, () => handlers.done());
    },
  );
  req.on('error', (error) => handlers.done(error.message));
  if (payload) req.write(payload);
  req.end();
  return req;
}

/** CPU seconds (user + system) of a process so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the file (utime, stime), counted after the command's closing parenthesis.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Commits so far, and the seconds they took in all (BEGIN to durable COMMIT), from /metrics. */
async function commitsSoFar(port) {
  try {
    const text = String((await request(port, 'GET', '/metrics', undefined, 60_000)).body);
    const sum = Number(/^db_commit_duration_seconds_sum\s+([\d.e+-]+)/m.exec(text)?.[1] ?? NaN);
    return Object.assign(Number(/^db_commit_duration_seconds_count\s+(\d+)/m.exec(text)?.[1] ?? NaN), { sum });
  } catch {
    return NaN;
  }
}

/**
 * The server's memory right after a full collection (bench/lib/heap-probe.mjs), in bytes, and
 * how many replies were streaming then; `snapshot` also writes a heap snapshot to that file.
 */
async function memoryAfterGc(server, probePort, model, snapshot) {
  const liveBefore = model.active.size;
  const path = snapshot ? `/snapshot?file=${encodeURIComponent(snapshot)}` : '/';
  const m = (await request(probePort, 'GET', path, undefined, 120_000)).body;
  // The streams that ended while it ran make the figure a bound, not a count: both are kept.
  return {
    live: model.active.size,
    liveBefore,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rss: m.rss,
  };
}

async function oneLevel(server, model, { streams, windowMs, timeoutMs, probe }) {
  model.reset(streams);
  const clientSamples = [];
  const followerSamples = [];
  const failures = [];
  let finished = 0;
  let followersDone = 0;
  let followersOpened = 0;
  let clientTokens = 0;
  let followerTokens = 0;
  const requests = [];
  const all = new Promise((resolve) => {
    const check = () => finished === streams && followersDone === streams && resolve();
    // Opened in slices of RAMP_SLICE, the next once the followers of the last have connected (at
    // least RAMP_MS apart): a loaded server accepts one connection per turn of its event loop
    // (libuv >= 1.45), and a burst beyond that fills its listen backlog (511) until the kernel drops them.
    const open = async (i) => {
      for (; i < streams; i += RAMP_SLICE) {
        const end = Math.min(streams, i + RAMP_SLICE);
        for (let j = i; j < end; j++) openOne(j);
        const since = performance.now();
        await sleep(RAMP_MS);
        while (followersOpened + failures.length < end && performance.now() - since < RAMP_WAIT_MS) await sleep(20);
      }
    };
    void open(0);
    function openOne(i) {
      const state = { carry: '', tokens: 0 };
      let gotDone = false;
      requests.push(
        openStream(
          server.port,
          'POST',
          '/api/chat/stream',
          { message: `live stream ${i}` },
          {
            event: (name, data) => {
              const now = performance.now();
              if (name === 'conversation') startFollower(data.conversationId, data.messageId);
              else if (name === 'delta') stampsOf(state, data.text, now, 0, clientSamples);
              else if (name === 'done') gotDone = true;
              else if (name === 'error') failures.push(`stream error: ${data.message}`);
            },
            done: (error) => {
              if (error) failures.push(`stream: ${error}`);
              else if (!gotDone) failures.push('stream ended without done');
              clientTokens += state.tokens;
              finished += 1;
              check();
            },
          },
        ),
      );
    }
    function startFollower(conversationId, messageId) {
      const state = { carry: '', tokens: 0 };
      let openedAt = Infinity;
      let gotDone = false;
      requests.push(
        openStream(server.port, 'GET', `/api/conversations/${conversationId}/messages/${messageId}/stream`, undefined, {
          opened: () => {
            openedAt = performance.now();
            followersOpened += 1;
          },
          event: (name, data) => {
            // Text stored before the follower connected is history, not latency.
            if (name === 'delta') stampsOf(state, data.text, performance.now(), openedAt, followerSamples);
            else if (name === 'done') gotDone = true;
            else if (name === 'error') failures.push(`follower error: ${data.message}`);
          },
          done: (error) => {
            if (error) failures.push(`follower: ${error}`);
            else if (!gotDone) failures.push('follower ended without done');
            followerTokens += state.tokens;
            followersDone += 1;
            check();
          },
        }),
      );
    }
  });
  // Samples of the server while all replies stream.
  const samples = [];
  const sampler = setInterval(() => {
    const live = model.allStartedAt !== null && model.firstFinishedAt === null;
    if (live) samples.push({ at: performance.now(), rssMiB: memoryOf(server.pid).rssMiB });
  }, 250);
  let lastCpu = cpuSeconds(server.pid);
  const trace = process.env.LIVE_STREAMS_TRACE
    ? setInterval(() => {
        const cpu = cpuSeconds(server.pid);
        const t = performance.now();
        void request(server.port, 'GET', '/health', undefined, 30_000).then(
          () => console.error(`  [${streams}] /health answered in ${round(performance.now() - t, 1)} ms`),
          (e) => console.error(`  [${streams}] /health failed: ${e.message}`),
        );
        const said = server.log.join('').match(/\[server\] event loop[^\n]*/g);
        if (said) console.error(`  [${streams}] ${said.at(-1)}`);
        console.error(
          `  [${streams}] model ${model.started}/${model.finished} live ${model.active.size}; streams done ${finished}; followers opened ${followersOpened} done ${followersDone}; failures ${failures.length}; server CPU ${round(cpu - lastCpu, 2)} cores`,
        );
        lastCpu = cpu;
      }, 1000)
    : undefined;
  let window = null;
  let rampMs = NaN;
  const rampStart = performance.now();
  const watchWindow = (async () => {
    // Steady state: every reply streaming and every follower connected.
    while ((model.allStartedAt === null || followersOpened + failures.length < streams) && model.finished === 0)
      await sleep(20);
    // Every reply at full rate from here; a second for that to settle before the window.
    model.full();
    await sleep(1000);
    // The scrape waits its turn on a busy server: the window starts and ends when its answer is in.
    const startCommits = await commitsSoFar(server.port);
    const start = { at: performance.now(), cpu: cpuSeconds(server.pid), commits: startCommits, emitted: model.emitted };
    rampMs = start.at - rampStart - 1000;
    // The model holds every reply until the window and the probe are over.
    await sleep(windowMs);
    const end = { at: performance.now(), cpu: cpuSeconds(server.pid), emitted: model.emitted };
    window = { start, end };
    // The probe comes after the window, so the collection's pause is in no latency counted (the
    // tokens of the window are delivered by then), and while almost every reply still streams.
    const [commits, memory] = await Promise.all([
      commitsSoFar(server.port).then((count) => ({ count, at: performance.now() })),
      probe ? sleep(200).then(probe) : undefined,
    ]);
    end.commits = commits.count;
    end.commitsAt = commits.at;
    window.commitMs = ((commits.count.sum - startCommits.sum) * 1000) / (commits.count - startCommits);
    window.memory = memory;
    window.tokensPerReply = model.active.size ? model.emitted / model.started : NaN;
    model.release();
  })();
  const timedOut = Symbol('timeout');
  const outcome = await Promise.race([all, sleep(timeoutMs).then(() => timedOut)]);
  clearInterval(sampler);
  clearInterval(trace);
  if (outcome === timedOut) {
    failures.push(`not finished within ${timeoutMs} ms (${finished}/${streams} streams, ${followersDone} followers)`);
    requests.forEach((r) => r.destroy());
  }
  model.release();
  await watchWindow;
  return {
    rampMs,
    clientSamples,
    followerSamples,
    failures,
    window,
    samples,
    clientTokens,
    followerTokens,
    allStarted: model.allStartedAt !== null,
  };
}

function afterGc(idle, live) {
  if (!idle || !live) return { live: 0 };
  const per = (field) => round((live[field] - idle[field]) / live.live / 1024, 1);
  const mib = (m) => ({
    heapUsedMiB: round(m.heapUsed / 2 ** 20, 1),
    externalMiB: round(m.external / 2 ** 20, 1),
    arrayBuffersMiB: round(m.arrayBuffers / 2 ** 20, 1),
    rssMiB: round(m.rss / 2 ** 20, 1),
  });
  return {
    live: live.live,
    liveBefore: live.liveBefore,
    idle: mib(idle),
    streaming: mib(live),
    heapPerStreamKiB: per('heapUsed'),
    externalPerStreamKiB: per('external'),
    rssPerStreamKiB: per('rss'),
  };
}

/** Bytes each further live stream adds between two levels (after a full collection): the slope, free of each run's baseline. */
export function memorySlopes(levels) {
  const slopes = [];
  for (let i = 1; i < levels.length; i++) {
    const [a, b] = [levels[i - 1], levels[i]];
    if (a.database !== b.database || !a.afterGc?.live || !b.afterGc?.live) continue;
    const d = (field) =>
      round(((b.afterGc.streaming[field] - a.afterGc.streaming[field]) * 1024) / (b.afterGc.live - a.afterGc.live), 1);
    slopes.push({
      database: a.database,
      from: a.afterGc.live,
      to: b.afterGc.live,
      heapKiB: d('heapUsedMiB'),
      externalKiB: d('externalMiB'),
      rssKiB: d('rssMiB'),
    });
  }
  return slopes;
}

function summary(samples, window) {
  // Only deltas the model wrote while all N replies were streaming (the steady state).
  const inWindow = window
    ? samples.filter(([emitted]) => emitted >= window.start.at && emitted <= window.end.at)
    : samples;
  const s = summarize(inWindow.map(([, latency]) => latency));
  return { deltas: s.n, p50Ms: round(s.p50, 1), p99Ms: round(s.p99, 1), maxMs: round(s.max, 1) };
}

export async function liveStreams(
  {
    levels = [100, 500, 1000],
    tokensPerS = 30,
    replyS = 10,
    postgresUrl,
    script = DIST_MAIN,
    env = {},
    nodeArgs = [],
    snapshotDir,
  } = {},
  log = console.log,
) {
  const model = await startTimedModel({ tokensPerS });
  const tmp = tempDir('live');
  const schema = `bench_live_${Date.now()}`;
  // WORKERS > 1 runs on PostgreSQL only (the service refuses it on SQLite).
  const targets = Number(env.WORKERS ?? 1) > 1 ? {} : { sqlite: `sqlite:${join(tmp.dir, 'live.sqlite')}` };
  if (postgresUrl) {
    const url = new URL(postgresUrl);
    url.searchParams.set('schema', schema);
    targets.postgres = url.toString();
  }
  const results = { tokensPerS, windowS: replyS, levels: [] };
  try {
    for (const [database, databaseUrl] of Object.entries(targets)) {
      for (const streams of levels) {
        const probePort = await freePort();
        const server = await startServer({
          label: `live-${database}-${streams}`,
          // The heap probe: memory after a full collection, on request only (no collection otherwise).
          nodeArgs: [
            ...(process.env.LIVE_STREAMS_NO_PROBE
              ? []
              : ['--expose-gc', '--import', join(BENCH_DIR, 'lib', 'heap-probe.mjs')]),
            ...nodeArgs,
          ],
          script,
          env: {
            HEAP_PROBE_PORT: String(probePort),
            ...(process.env.LIVE_STREAMS_TRACE ? { LIVE_STREAMS_TRACE: '1' } : {}),
            DATABASE_URL: database === 'sqlite' ? `sqlite:${join(tmp.dir, `live-${streams}.sqlite`)}` : databaseUrl,
            LLM_BASE_URL: model.url,
            LLM_MODEL: 'bench-model',
            LLM_API_KEY: 'x',
            LLM_MAX_RETRIES: '0',
            SUMMARY_MODE: 'off',
            MAX_STREAMS_PER_ACTOR: '0',
            MAX_GENERATIONS_PER_ACTOR: '0',
            MAX_GENERATIONS: '0',
            RATE_LIMIT_PER_MINUTE: '0',
            LOG_LEVEL: 'warn',
            ...env,
          },
        });
        try {
          // A few turns first, so what loads lazily is loaded before the idle figure.
          model.reset(4);
          await oneLevel(server, model, { streams: 4, windowMs: 1000, timeoutMs: 60_000 });
          await sleep(1000);
          const snap = (tag) =>
            snapshotDir ? join(snapshotDir, `live-${database}-${streams}-${tag}.heapsnapshot`) : undefined;
          const noProbe = Boolean(process.env.LIVE_STREAMS_NO_PROBE);
          const idle = noProbe ? null : await memoryAfterGc(server, probePort, model, snap('idle'));
          const idleMiB = memoryOf(server.pid).rssMiB;
          const eventLoop = monitorEventLoopDelay({ resolution: 10 });
          eventLoop.enable();
          const benchCpu = process.cpuUsage();
          const t0 = performance.now();
          const probe = noProbe ? undefined : () => memoryAfterGc(server, probePort, model, snap('live'));
          const run = await oneLevel(server, model, {
            streams,
            windowMs: replyS * 1000,
            timeoutMs: replyS * 1000 + 240_000,
            probe,
          });
          eventLoop.disable();
          const benchCpuS = (process.cpuUsage(benchCpu).user + process.cpuUsage(benchCpu).system) / 1e6;
          const w = run.window;
          const seconds = w ? (w.end.at - w.start.at) / 1000 : NaN;
          const rss = run.samples.map((s) => s.rssMiB).sort((a, b) => a - b);
          const duringMiB = rss.length ? rss[Math.floor(rss.length / 2)] : memoryOf(server.pid).rssMiB;
          const level = {
            database,
            streams,
            steadyWindowS: round(seconds, 1),
            allStreamedAtOnce: run.allStarted,
            client: summary(run.clientSamples, run.allStarted ? w : null),
            follower: summary(run.followerSamples, run.allStarted ? w : null),
            commitsPerS: w
              ? round((w.end.commits - w.start.commits) / ((w.end.commitsAt - w.start.at) / 1000), 0)
              : NaN,
            // BEGIN to durable COMMIT, the mean of the window's commits: what a progress tick waits for.
            commitMeanMs: round(w?.commitMs, 1),
            progressTicksPerS: round(streams * (1000 / Number(env.STREAM_FLUSH_MS ?? 200)), 0),
            serverCpuCores: w ? round((w.end.cpu - w.start.cpu) / seconds, 2) : NaN,
            // The figure that survives a loaded machine: the server's CPU per token the model streamed in the window.
            serverCpuUsPerToken: w
              ? round(((w.end.cpu - w.start.cpu) * 1e6) / (w.end.emitted - w.start.emitted), 1)
              : NaN,
            rssIdleMiB: round(idleMiB, 1),
            rssStreamingMiB: round(duringMiB, 1),
            rssPerStreamKiB: round(((duringMiB - idleMiB) * 1024) / streams, 1),
            // After a full collection, idle and with `live` replies streaming: bytes of what is reachable.
            afterGc: afterGc(idle, w?.memory),
            benchCpuCores: round(benchCpuS / ((performance.now() - t0) / 1000), 2),
            benchEventLoopP99Ms: round(eventLoop.percentile(99) / 1e6, 1),
            rampS: round(run.rampMs / 1000, 1),
            tokensPerReplyAtProbe: round(w?.tokensPerReply, 0),
            tokensSeen: { client: run.clientTokens, follower: run.followerTokens },
            failures: run.failures.length,
            firstFailures: [...new Set(run.failures)].slice(0, 5),
            loadAverage: os.loadavg().map((x) => round(x, 2)),
          };
          results.levels.push(level);
          log(
            `  ${database} ${String(streams).padStart(5)} streams: added latency client p50/p99 ${level.client.p50Ms}/${level.client.p99Ms} ms, ` +
              `follower ${level.follower.p50Ms}/${level.follower.p99Ms} ms; ${Number.isNaN(level.commitsPerS) ? 'no commits counted' : `${level.commitsPerS} commits/s of ${level.commitMeanMs} ms`} (${level.progressTicksPerS} progress ticks/s); ` +
              `server CPU ${level.serverCpuCores} cores (${level.serverCpuUsPerToken} µs per model token); RSS ${level.rssIdleMiB} -> ${level.rssStreamingMiB} MiB (${level.rssPerStreamKiB} KiB/stream); ` +
              `after GC with ${level.afterGc.liveBefore}-${level.afterGc.live} live: heap ${level.afterGc.heapPerStreamKiB}, external ${level.afterGc.externalPerStreamKiB}, RSS ${level.afterGc.rssPerStreamKiB} KiB/stream; ` +
              `bench CPU ${level.benchCpuCores}, its loop p99 ${level.benchEventLoopP99Ms} ms; failures ${level.failures}; load ${level.loadAverage.join(' ')}`,
          );
          if (level.failures)
            log(
              `    ${level.firstFailures.join('\n    ')}\n    server log: ${server.log.join('').slice(-1500).replace(/\n/g, '\n      ')}`,
            );
        } finally {
          await server.stop();
        }
      }
    }
    results.memorySlopes = memorySlopes(results.levels);
    for (const m of results.memorySlopes)
      log(
        `  ${m.database} ${m.from} -> ${m.to} live streams, per further stream after GC: heap ${m.heapKiB} KiB, external ${m.externalKiB} KiB, RSS ${m.rssKiB} KiB`,
      );
  } finally {
    await model.close();
    tmp.remove();
    if (postgresUrl) {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const result = await liveStreams({
    levels: (arg('levels') ?? '100,500,1000').split(',').map(Number),
    replyS: Number(arg('reply-s') ?? 10),
    postgresUrl: process.env.BENCH_DATABASE_URL,
    script: arg('script') ? resolve(arg('script')) : DIST_MAIN,
    // --workers=N: the server as N processes sharing the port (WORKERS, PostgreSQL only).
    env: arg('workers') ? { WORKERS: arg('workers') } : {},
    snapshotDir: arg('snapshot-dir') ? resolve(arg('snapshot-dir')) : undefined,
    // A CPU profile of each server (written when it stops): `node bench/profile-summary.mjs <file>`.
    nodeArgs: arg('cpu-prof-dir')
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${resolve(arg('cpu-prof-dir'))}`,
          '--import',
          join(BENCH_DIR, 'lib', 'exit-on-signal.mjs'),
        ]
      : [],
  });
  console.log(JSON.stringify(result, null, 2));
  // Sockets of the last requests would keep the process up for minutes after the work is done.
  process.exit(0);
}
