// Section 1: chat-turn throughput and latency over HTTP, the service next to the hand-written
// reference server, plus GET /health as the HTTP ceiling of the service.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, DIST_MAIN, spread, startServer, tempDir, withServerLog } from '../lib/common.mjs';
import { interleaved, load, seedOverHttp, userMessage } from '../lib/load.mjs';

export async function httpTurns(opts, log) {
  const { repetitions, durationS, slices, warmupS, connections, seedConversations, seedTurns, profileDir } = opts;
  const tmp = tempDir('http');
  const servers = {};
  let statementsFile;
  let profiledTurns = 0;
  try {
    servers.service = await startServer({
      label: 'service',
      script: DIST_MAIN,
      env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'service.sqlite')}` },
    });
    servers.reference = await startServer({
      label: 'reference',
      script: join(BENCH_DIR, 'reference-server.mjs'),
      env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'reference.sqlite')}` },
    });

    servers.light = await startServer({
      label: 'light reference',
      script: join(BENCH_DIR, 'reference-server.mjs'),
      env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'light.sqlite')}`, REFERENCE_LIGHT: '1' },
    });

    const ids = {};
    for (const name of ['service', 'reference', 'light']) {
      log(`  seeding ${seedConversations} conversations x ${seedTurns} turns on the ${name}`);
      ids[name] = await withServerLog(
        servers[name],
        seedOverHttp(servers[name].port, { conversations: seedConversations, turns: seedTurns }),
      );
    }

    let n = 1_000_000;
    const chat = (name, seconds, sample = true) =>
      load({
        port: servers[name].port,
        method: 'POST',
        path: '/api/chat',
        connections,
        durationS: seconds,
        sampleLatency: sample,
        // Every request resumes one of the seeded conversations, in rotation.
        body: (i) => ({ message: userMessage(n++), conversationId: ids[name][i % ids[name].length] }),
      });
    const health = (name, seconds) =>
      load({ port: servers[name].port, path: '/health', connections, durationS: seconds });

    log(`  warming up (${warmupS} s each)`);
    for (const name of ['service', 'reference', 'light']) {
      await chat(name, warmupS, false);
      await health(name, Math.max(1, Math.round(warmupS / 2)));
    }

    const runs = [];
    for (let r = 0; r < repetitions; r++) {
      // Each repetition: `durationS` seconds per server, in alternating slices.
      const turns = await interleaved(
        {
          serviceChat: (sec) => chat('service', sec),
          referenceChat: (sec) => chat('reference', sec),
          lightChat: (sec) => chat('light', sec),
        },
        { slices, sliceS: durationS / slices },
      );
      log(
        `  rep ${r + 1}/${repetitions} chat: service ${describe(turns.serviceChat)}; reference ${describe(turns.referenceChat)}; light reference ${describe(turns.lightChat)}`,
      );
      const ceilings = await interleaved(
        { serviceHealth: (sec) => health('service', sec), referenceHealth: (sec) => health('reference', sec) },
        { slices, sliceS: durationS / slices },
      );
      log(
        `  rep ${r + 1}/${repetitions} /health: service ${describe(ceilings.serviceHealth)}; reference ${describe(ceilings.referenceHealth)}`,
      );
      runs.push({ ...turns, ...ceilings });
    }

    if (profileDir) {
      // A separate service under --cpu-prof, after the measured runs so that profiling costs
      // nothing to them: seeded the same way, then chat turns only for `durationS`.
      log(`  profiling the service under chat load (${durationS} s)`);
      const preload = (name) => `--import=${pathToFileURL(join(BENCH_DIR, 'lib', name)).href}`;
      statementsFile = join(profileDir, `statements-${Date.now()}.json`);
      const profiled = await startServer({
        label: 'profiled service',
        script: DIST_MAIN,
        env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'profiled.sqlite')}`, STATEMENT_TIMING_FILE: statementsFile },
        nodeArgs: [
          '--cpu-prof',
          `--cpu-prof-dir=${profileDir}`,
          preload('exit-on-signal.mjs'),
          preload('statement-timing.mjs'),
        ],
      });
      servers.profiled = profiled;
      ids.profiled = await withServerLog(
        profiled,
        seedOverHttp(profiled.port, { conversations: seedConversations, turns: seedTurns }),
      );
      profiled.child.kill('SIGWINCH'); // count the statements of the load only, not of start-up and seeding
      profiledTurns = (await chat('profiled', durationS, false)).ok;
      await profiled.stop();
    }

    const statements = statementsFile ? statementBreakdown(statementsFile, profiledTurns) : undefined;
    const pick = (key, f) => spread(runs.map((run) => f(run[key])));
    const failures = runs
      .flatMap((run) => Object.values(run))
      .reduce((a, x) => a + x.non2xx + x.errors + x.timeouts, 0);
    return {
      settings: { connections, durationS, slices, repetitions, warmupS, seedConversations, seedTurns },
      failures,
      serviceTurnsPerS: pick('serviceChat', (x) => x.perSecond),
      referenceTurnsPerS: pick('referenceChat', (x) => x.perSecond),
      ratio: spread(runs.map((run) => run.serviceChat.perSecond / run.referenceChat.perSecond)),
      // Against one transaction per turn without any fsync: how far the service is from the limit.
      lightTurnsPerS: pick('lightChat', (x) => x.perSecond),
      lightRatio: spread(runs.map((run) => run.serviceChat.perSecond / run.lightChat.perSecond)),
      // The same ratio slice by slice (adjacent slices): how much it moves within a repetition.
      sliceRatios: spread(
        runs.flatMap((run) => run.serviceChat.slicesPerSecond.map((v, i) => v / run.referenceChat.slicesPerSecond[i])),
      ),
      serviceP50Ms: pick('serviceChat', (x) => x.latencyMs.p50),
      serviceP99Ms: pick('serviceChat', (x) => x.latencyMs.p99),
      referenceP50Ms: pick('referenceChat', (x) => x.latencyMs.p50),
      referenceP99Ms: pick('referenceChat', (x) => x.latencyMs.p99),
      serviceHealthPerS: pick('serviceHealth', (x) => x.perSecond),
      serviceHealthP50Ms: pick('serviceHealth', (x) => x.latencyMs.p50),
      referenceHealthPerS: pick('referenceHealth', (x) => x.perSecond),
      ...(statements ? { profiledStatements: statements } : {}),
      runs,
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    tmp.remove();
  }
}

function describe(x) {
  const bad = x.non2xx + x.errors + x.timeouts;
  return `${x.perSecond.toFixed(0)}/s, p50 ${x.latencyMs.p50.toFixed(2)} ms, p99 ${x.latencyMs.p99.toFixed(2)} ms${bad ? `, ${bad} FAILED` : ''}`;
}

/** Section 3 over HTTP: GET /api/conversations (first page) on a database prepared by the reads section. */
export async function httpList({ dbPath, repetitions, durationS }, log) {
  const server = await startServer({ label: 'service', script: DIST_MAIN, env: { DATABASE_URL: `sqlite:${dbPath}` } });
  try {
    const get = (seconds) =>
      load({ port: server.port, path: '/api/conversations?limit=20', connections: 1, durationS: seconds });
    await get(1);
    const runs = [];
    for (let r = 0; r < repetitions; r++) {
      runs.push(await get(durationS));
      log(`  rep ${r + 1}/${repetitions} GET /api/conversations (1 connection): ${describe(runs.at(-1))}`);
    }
    return {
      failures: runs.reduce((a, x) => a + x.non2xx + x.errors + x.timeouts, 0),
      perS: spread(runs.map((x) => x.perSecond)),
      p50Ms: spread(runs.map((x) => x.latencyMs.p50)),
      p99Ms: spread(runs.map((x) => x.latencyMs.p99)),
    };
  } finally {
    await server.stop();
  }
}

/** Per chat turn: the time SQLite spent in each statement of the profiled run, costliest first. */
function statementBreakdown(file, turns) {
  const rows = JSON.parse(readFileSync(file, 'utf8'));
  const perTurn = (x) => (turns > 0 ? x / turns : 0);
  return {
    turns,
    statementsPerTurn: perTurn(rows.reduce((a, r) => a + r.calls, 0)),
    msPerTurn: perTurn(rows.reduce((a, r) => a + r.ms, 0)),
    top: rows
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15)
      .map((r) => ({
        sql: r.sql.slice(0, 120),
        callsPerTurn: perTurn(r.calls),
        msPerTurn: perTurn(r.ms),
        usPerCall: (1000 * r.ms) / r.calls,
      })),
  };
}
