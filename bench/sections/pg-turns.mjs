// Chat turns over HTTP on PostgreSQL: the built service next to the hand-written `pg` reference
// (bench/reference-server-pg.mjs, same promise), in alternating slices, like section 1 does on
// SQLite. Each server gets a fresh schema of its own in BENCH_DATABASE_URL's database (dropped
// at the end). Both run with bench/lib/pg-statement-count.mjs preloaded, so the statements (and
// round trips) per turn are counted from what each `pg` client sent during the measured slices.
//   BENCH_DATABASE_URL=postgres://… node bench/sections/pg-turns.mjs [--quick]
// BENCH_SERVER_SCRIPT=<another build>/dist/src/main.js measures that build instead (a before/after).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { BENCH_DIR, DIST_MAIN, round, sleep, spread, startServer, withServerLog } from '../lib/common.mjs';
import { interleaved, load, seedOverHttp, userMessage } from '../lib/load.mjs';

export async function pgTurns(
  {
    postgresUrl,
    serviceScript = process.env.BENCH_SERVER_SCRIPT ?? DIST_MAIN,
    repetitions = 3,
    durationS = 10,
    slices = 5,
    warmupS = 3,
    connections = 10,
  },
  log = console.error,
) {
  if (!postgresUrl) throw new Error('pg-turns needs BENCH_DATABASE_URL=postgres://… (a database this bench may fill)');
  const stamp = Date.now();
  const schemas = { service: `bench_svc_${stamp}`, reference: `bench_ref_${stamp}` };
  const dir = mkdtempSync(join(os.tmpdir(), 'chat-memory-bench-pg-turns-'));
  const countFile = (name) => join(dir, `${name}-statements.json`);
  const urlWith = (schema) => {
    const url = new URL(postgresUrl);
    url.searchParams.set('schema', schema);
    return url.toString();
  };
  const preload = `--import=${pathToFileURL(join(BENCH_DIR, 'lib', 'pg-statement-count.mjs')).href}`;
  const servers = {};
  let monitor = null;
  try {
    servers.service = await startServer({
      label: 'service (PostgreSQL)',
      script: serviceScript,
      env: { DATABASE_URL: urlWith(schemas.service), PG_STATEMENT_COUNT_FILE: countFile('service') },
      nodeArgs: [preload],
    });
    servers.reference = await startServer({
      label: 'reference (pg)',
      script: join(BENCH_DIR, 'reference-server-pg.mjs'),
      env: { DATABASE_URL: urlWith(schemas.reference), PG_STATEMENT_COUNT_FILE: countFile('reference') },
      nodeArgs: [preload],
    });
    const ids = {};
    for (const name of ['service', 'reference']) {
      log(`  seeding 100 conversations x 3 turns on the ${name}`);
      ids[name] = await withServerLog(
        servers[name],
        seedOverHttp(servers[name].port, { conversations: 100, turns: 3 }),
      );
    }
    let n = 3_000_000;
    // CPU time of each server process during the measured slices: on a loaded machine each
    // process gets a share of the CPUs, so turns per second follow the CPU time a turn needs.
    const cpu = { service: { user: 0, system: 0 }, reference: { user: 0, system: 0 } };
    // PostgreSQL's own CPU for each server's turns: the backends of the bench database, read from
    // /proc around each slice (only one server works during a slice; the other's backends idle).
    // This needs PostgreSQL on this machine; other databases' backends (other work) are not counted.
    const pgCpu = { service: 0, reference: 0 };
    monitor = new pg.Client({ connectionString: postgresUrl });
    await monitor.connect();
    const backends = async () =>
      (
        await monitor.query(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
        )
      ).rows.map((r) => r.pid);
    const chat = async (name, seconds, sampleLatency = true) => {
      const pids = sampleLatency ? await backends() : [];
      const pgBefore = processesSeconds(pids);
      const before = cpuSeconds(servers[name].pid);
      const result = await load({
        port: servers[name].port,
        method: 'POST',
        path: '/api/chat',
        connections,
        durationS: seconds,
        sampleLatency,
        body: (i) => ({ message: userMessage(n++), conversationId: ids[name][i % ids[name].length] }),
      });
      const after = cpuSeconds(servers[name].pid);
      if (sampleLatency) {
        pgCpu[name] += processesSeconds(pids) - pgBefore;
        cpu[name].user += after.user - before.user;
        cpu[name].system += after.system - before.system;
      }
      return result;
    };
    log(`  warming up (${warmupS} s each)`);
    for (const name of ['service', 'reference']) await chat(name, warmupS, false);
    // Count the measured turns' statements only, not those of start-up, seeding and warm-up.
    for (const server of Object.values(servers)) server.child.kill('SIGWINCH');

    const runs = [];
    for (let r = 0; r < repetitions; r++) {
      const turns = await interleaved(
        { service: (sec) => chat('service', sec), reference: (sec) => chat('reference', sec) },
        { slices, sliceS: durationS / slices },
      );
      log(
        `  rep ${r + 1}/${repetitions}: service ${describe(turns.service)}; reference ${describe(turns.reference)} (load ${os.loadavg()[0].toFixed(2)})`,
      );
      runs.push(turns);
    }
    const statements = {};
    const cpuMsPerTurn = {};
    for (const name of ['service', 'reference']) {
      const turns = runs.reduce((a, run) => a + run[name].ok, 0);
      rmSync(countFile(name), { force: true });
      servers[name].child.kill('SIGWINCH');
      statements[name] = statementsPerTurn(await written(countFile(name)), turns);
      cpuMsPerTurn[name] = {
        user: round((1000 * cpu[name].user) / turns, 2),
        system: round((1000 * cpu[name].system) / turns, 2),
        postgres: round((1000 * pgCpu[name]) / turns, 2),
      };
    }
    const pick = (name, f) => spread(runs.map((run) => f(run[name])));
    return {
      settings: {
        serviceScript,
        connections,
        durationS,
        slices,
        repetitions,
        warmupS,
        seedConversations: 100,
        seedTurns: 3,
      },
      failures: runs.flatMap((run) => Object.values(run)).reduce((a, x) => a + x.non2xx + x.errors + x.timeouts, 0),
      serviceTurnsPerS: pick('service', (x) => x.perSecond),
      referenceTurnsPerS: pick('reference', (x) => x.perSecond),
      ratio: spread(runs.map((run) => run.service.perSecond / run.reference.perSecond)),
      sliceRatios: spread(
        runs.flatMap((run) => run.service.slicesPerSecond.map((v, i) => v / run.reference.slicesPerSecond[i])),
      ),
      serviceP50Ms: pick('service', (x) => x.latencyMs.p50),
      serviceP99Ms: pick('service', (x) => x.latencyMs.p99),
      referenceP50Ms: pick('reference', (x) => x.latencyMs.p50),
      referenceP99Ms: pick('reference', (x) => x.latencyMs.p99),
      statements,
      cpuMsPerTurn,
      runs: runs.map((run) =>
        Object.fromEntries(
          Object.entries(run).map(([k, v]) => [k, { ...v, latencyMs: { p50: v.latencyMs.p50, p99: v.latencyMs.p99 } }]),
        ),
      ),
    };
  } finally {
    await monitor?.end().catch(() => undefined);
    for (const server of Object.values(servers)) await server.stop();
    rmSync(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    for (const schema of Object.values(schemas)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

function describe(x) {
  const bad = x.non2xx + x.errors + x.timeouts;
  return `${x.perSecond.toFixed(0)}/s, p50 ${x.latencyMs.p50.toFixed(2)} ms, p99 ${x.latencyMs.p99.toFixed(2)} ms${bad ? `, ${bad} FAILED` : ''}`;
}

/** User and system CPU seconds a Linux process has used so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** CPU seconds (user + system) the processes `pids` have used so far; a process gone since counts nothing. */
function processesSeconds(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const { user, system } = cpuSeconds(pid);
      total += user + system;
    } catch {
      // The backend ended (a pool connection closed): its CPU is lost to both readings alike.
    }
  }
  return total;
}

/** The text of `file` once a server has written it (bounded wait). */
async function written(file) {
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) return readFileSync(file, 'utf8');
    await sleep(50);
  }
  throw new Error(`${file} was not written within 5 s`);
}

/** Statements (= round trips: `pg` waits for each answer) per turn, and the commits among them. */
function statementsPerTurn(text, turns) {
  const rows = JSON.parse(text);
  const per = (calls) => round(turns > 0 ? calls / turns : 0, 2);
  const total = rows.reduce((a, r) => a + r.calls, 0);
  return {
    turns,
    perTurn: per(total),
    commitsPerTurn: per(rows.filter((r) => /^COMMIT\b/i.test(r.sql)).reduce((a, r) => a + r.calls, 0)),
    top: rows
      .sort((a, b) => b.calls - a.calls)
      .slice(0, 20)
      .map((r) => ({ sql: r.sql.slice(0, 140), perTurn: per(r.calls) })),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const settings = quick ? { repetitions: 1, durationS: 4, slices: 2, warmupS: 1 } : {};
  const before = os.loadavg();
  const result = await pgTurns({ postgresUrl: process.env.BENCH_DATABASE_URL, ...settings });
  console.log(JSON.stringify({ loadAverage: { before, after: os.loadavg() }, ...result }, null, 2));
}
