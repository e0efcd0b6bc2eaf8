// CPU time per chat turn over HTTP, of several builds of the service and the hand-written
// reference, in alternating slices: on a shared machine turns per second follow whatever CPU
// the other programs leave, while the CPU a turn costs moves much less, so builds are compared
// by it (and by its ratio within one run). SQLite by default; PostgreSQL with
// BENCH_DATABASE_URL (each server on a fresh schema, dropped at the end; PostgreSQL's backends'
// CPU is counted too, which needs PostgreSQL on this machine).
//   node bench/sections/turn-cpu.mjs [--quick] [--builds=main=/other/dist/src/main.js,...] [--path=/health]
// The build of this tree is always measured as `this`; --path measures GETs of that path instead.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { BENCH_DIR, DIST_MAIN, round, spread, startServer, withServerLog } from '../lib/common.mjs';
import { interleaved, load, seedOverHttp, userMessage } from '../lib/load.mjs';

export async function turnCpu(
  {
    builds = {},
    postgresUrl,
    path,
    repetitions = 3,
    durationS = 10,
    slices = 5,
    warmupS = 3,
    connections = 10,
    reference = true,
  },
  log = console.error,
) {
  const stamp = Date.now();
  const dir = mkdtempSync(join(os.tmpdir(), 'chat-memory-bench-turn-cpu-'));
  const targets = { this: DIST_MAIN, ...builds };
  if (reference) targets.reference = join(BENCH_DIR, postgresUrl ? 'reference-server-pg.mjs' : 'reference-server.mjs');
  const schemas = [];
  const databaseUrl = (name) => {
    if (!postgresUrl) return `sqlite:${join(dir, `${name}.sqlite`)}`;
    const url = new URL(postgresUrl);
    const schema = `bench_cpu_${name.replace(/\W/g, '_')}_${stamp}`;
    schemas.push(schema);
    url.searchParams.set('schema', schema);
    return url.toString();
  };
  const servers = {};
  let monitor = null;
  try {
    for (const [name, script] of Object.entries(targets)) {
      servers[name] = await startServer({ label: name, script, env: { DATABASE_URL: databaseUrl(name) } });
    }
    const ids = {};
    for (const name of Object.keys(targets))
      ids[name] = await withServerLog(
        servers[name],
        seedOverHttp(servers[name].port, { conversations: 100, turns: 3 }),
      );
    if (postgresUrl) {
      monitor = new pg.Client({ connectionString: postgresUrl });
      await monitor.connect();
    }
    const backends = async () =>
      monitor
        ? (
            await monitor.query(
              "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
            )
          ).rows.map((r) => r.pid)
        : [];
    const cpu = Object.fromEntries(
      Object.keys(targets).map((name) => [name, { user: 0, system: 0, postgres: 0, ok: 0 }]),
    );
    let n = 5_000_000;
    const run = async (name, seconds, measured = true) => {
      // Per backend: a pool closes idle connections (after 10 s) and opens new ones, so the
      // backends are listed again after the slice, and each counts what it used since the first
      // reading (all of it, for one that began during the slice).
      const pgBefore = measured ? processesCpu(await backends()) : new Map();
      const before = cpuSeconds(servers[name].pid);
      const result = await load({
        port: servers[name].port,
        connections,
        durationS: seconds,
        sampleLatency: measured,
        ...(path
          ? { path }
          : {
              method: 'POST',
              path: '/api/chat',
              body: (i) => ({ message: userMessage(n++), conversationId: ids[name][i % ids[name].length] }),
            }),
      });
      const after = cpuSeconds(servers[name].pid);
      if (measured) {
        cpu[name].user += after.user - before.user;
        cpu[name].system += after.system - before.system;
        for (const [pid, seconds] of processesCpu(await backends()))
          cpu[name].postgres += seconds - (pgBefore.get(pid) ?? 0);
        cpu[name].ok += result.ok;
      }
      return result;
    };
    for (const name of Object.keys(targets)) await run(name, warmupS, false);
    const runs = [];
    for (let r = 0; r < repetitions; r++) {
      const turns = await interleaved(
        Object.fromEntries(Object.keys(targets).map((name) => [name, (sec) => run(name, sec)])),
        { slices, sliceS: durationS / slices },
      );
      log(
        `  rep ${r + 1}/${repetitions}: ${Object.entries(turns)
          .map(([name, x]) => `${name} ${x.perSecond.toFixed(0)}/s`)
          .join(', ')} (load ${os.loadavg()[0].toFixed(2)})`,
      );
      runs.push(turns);
    }
    const perTurn = (name) => {
      const c = cpu[name];
      const ms = (s) => round((1000 * s) / c.ok, 3);
      return {
        turns: c.ok,
        user: ms(c.user),
        system: ms(c.system),
        node: ms(c.user + c.system),
        ...(postgresUrl ? { postgres: ms(c.postgres), total: ms(c.user + c.system + c.postgres) } : {}),
      };
    };
    const cpuMsPerTurn = Object.fromEntries(Object.keys(targets).map((name) => [name, perTurn(name)]));
    return {
      settings: {
        database: postgresUrl ? 'postgres' : 'sqlite',
        path: path ?? 'POST /api/chat',
        targets,
        connections,
        durationS,
        slices,
        repetitions,
        warmupS,
      },
      failures: runs.flatMap((x) => Object.values(x)).reduce((a, x) => a + x.non2xx + x.errors + x.timeouts, 0),
      cpuMsPerTurn,
      perSecond: Object.fromEntries(
        Object.keys(targets).map((name) => [name, spread(runs.map((x) => x[name].perSecond))]),
      ),
      p50Ms: Object.fromEntries(
        Object.keys(targets).map((name) => [name, spread(runs.map((x) => x[name].latencyMs.p50))]),
      ),
    };
  } finally {
    await monitor?.end().catch(() => undefined);
    for (const server of Object.values(servers)) await server.stop();
    rmSync(dir, { recursive: true, force: true });
    if (postgresUrl && schemas.length) {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  }
}

/** User and system CPU seconds a Linux process has used so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** CPU seconds (user + system) each of `pids` has used so far; a process gone meanwhile is left out. */
function processesCpu(pids) {
  const seconds = new Map();
  for (const pid of pids) {
    try {
      const { user, system } = cpuSeconds(pid);
      seconds.set(pid, user + system);
    } catch {
      // The backend ended.
    }
  }
  return seconds;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const quick = process.argv.includes('--quick');
  const builds = Object.fromEntries(
    (arg('builds') ?? '')
      .split(',')
      .filter(Boolean)
      .map((x) => x.split('=')),
  );
  const settings = quick ? { repetitions: 1, durationS: 6, slices: 3, warmupS: 2 } : {};
  const before = os.loadavg();
  const result = await turnCpu({
    builds,
    postgresUrl: process.env.BENCH_DATABASE_URL,
    path: arg('path'),
    reference: !process.argv.includes('--no-reference'),
    ...settings,
  });
  const brief = {
    ...result,
    perSecond: Object.fromEntries(Object.entries(result.perSecond).map(([k, v]) => [k, round(v.median, 0)])),
    p50Ms: Object.fromEntries(Object.entries(result.p50Ms).map(([k, v]) => [k, round(v.median, 2)])),
  };
  console.log(
    JSON.stringify(
      {
        loadAverage: { before, after: os.loadavg() },
        commit: process.env.BENCH_COMMIT,
        ...(process.argv.includes('--full') ? result : brief),
      },
      null,
      2,
    ),
  );
}
