// What read replicas cost and take off the primary: the built service on BENCH_DATABASE_URL
// without replicas and with BENCH_READ_URL (a streaming standby of that database) as
// DATABASE_READ_URL, in alternating slices: chat turns (each pays the announcement of its write),
// then conversation lists by actors who do not write meanwhile (which the standby serves), with
// the primary's backends' CPU per request read from /proc (PostgreSQL on this machine).
//   BENCH_DATABASE_URL=postgres://…primary BENCH_READ_URL=postgres://…standby node bench/sections/read-replicas.mjs
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DIST_MAIN, round, startServer, withServerLog } from '../lib/common.mjs';
import { interleaved, load, seedOverHttp, userMessage } from '../lib/load.mjs';

const TICKS = 100; // clock ticks a second (/proc/<pid>/stat)

export async function readReplicas(
  { postgresUrl, readUrl, slices = 4, sliceS = 5, connections = 10 },
  log = console.error,
) {
  if (!postgresUrl || !readUrl)
    throw new Error('read-replicas needs BENCH_DATABASE_URL (the primary) and BENCH_READ_URL (a standby of it)');
  const stamp = Date.now();
  const urlWith = (schema) => {
    const url = new URL(postgresUrl);
    url.searchParams.set('schema', schema);
    return url.toString();
  };
  const servers = {};
  const monitor = new pg.Client({ connectionString: postgresUrl });
  await monitor.connect();
  try {
    servers.primaryOnly = await startServer({
      label: 'service, primary only',
      script: DIST_MAIN,
      env: { DATABASE_URL: urlWith(`bench_rr_a_${stamp}`) },
    });
    servers.withReplica = await startServer({
      label: 'service, with a replica',
      script: DIST_MAIN,
      env: { DATABASE_URL: urlWith(`bench_rr_b_${stamp}`), DATABASE_READ_URL: readUrl },
    });
    const ids = {};
    for (const name of Object.keys(servers)) {
      log(`  seeding 100 conversations x 3 turns (${name})`);
      ids[name] = await withServerLog(
        servers[name],
        seedOverHttp(servers[name].port, { conversations: 100, turns: 3 }),
      );
    }
    // The standby must have replayed the seeding before the reads start.
    await new Promise((r) => setTimeout(r, 1_000));
    // The primary's backends come and go (the pools close idle connections), so each one's CPU is
    // followed through the slice: sampled every 100 ms, from its first reading (0 if it is new) to its last.
    const backends = async () =>
      (
        await monitor.query(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
        )
      ).rows.map((r) => r.pid);
    const followCpu = async () => {
      const first = new Map((await backends()).map((pid) => [pid, cpuTicks(pid)]));
      const last = new Map(first);
      const sample = async () => {
        for (const pid of await backends()) {
          const ticks = cpuTicks(pid);
          if (!first.has(pid)) first.set(pid, 0);
          if (ticks > 0) last.set(pid, ticks);
        }
      };
      const timer = setInterval(() => void sample().catch(() => undefined), 100);
      return async () => {
        clearInterval(timer);
        await sample();
        let ticks = 0;
        for (const [pid, start] of first) ticks += (last.get(pid) ?? start) - start;
        return ticks;
      };
    };
    const measure = async (kind) => {
      let n = 0;
      const perServer = {};
      const targets = Object.fromEntries(
        Object.keys(servers).map((name) => [
          name,
          async (seconds) => {
            const stop = await followCpu();
            const result = await load({
              port: servers[name].port,
              connections,
              durationS: seconds,
              ...(kind === 'turns'
                ? {
                    method: 'POST',
                    path: '/api/chat',
                    body: () => ({ message: userMessage(n), conversationId: ids[name][n++ % ids[name].length] }),
                  }
                : { method: 'GET', path: '/api/conversations?limit=20' }),
            });
            perServer[name] = (perServer[name] ?? 0) + (await stop());
            return result;
          },
        ]),
      );
      const results = await interleaved(targets, { slices, sliceS });
      return Object.fromEntries(
        Object.entries(results).map(([name, r]) => [
          name,
          {
            perSecond: round(r.perSecond, 0),
            p50Ms: round(r.latencyMs.p50, 2),
            primaryCpuMsPerRequest: round((1000 * perServer[name]) / TICKS / r.ok, 3),
            failed: r.non2xx + r.errors,
          },
        ]),
      );
    };
    log('  chat turns, alternating');
    const turns = await measure('turns');
    log('  conversation lists, alternating');
    const lists = await measure('lists');
    const metrics = await (await fetch(`http://127.0.0.1:${servers.withReplica.port}/metrics`)).text();
    const routed = (target) =>
      Number(new RegExp(`^db_replica_routed_reads_total\\{target="${target}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    return {
      turns,
      lists,
      routedReads: { replica: routed('replica'), primary: routed('primary') },
      ratio: {
        turns: round(turns.withReplica.perSecond / turns.primaryOnly.perSecond, 3),
        lists: round(lists.withReplica.perSecond / lists.primaryOnly.perSecond, 3),
      },
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop().catch(() => undefined);
    for (const schema of [`bench_rr_a_${stamp}`, `bench_rr_b_${stamp}`])
      await monitor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await monitor.end();
  }
}

/** User and system clock ticks of a process so far (0 once it is gone). */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await readReplicas({ postgresUrl: process.env.BENCH_DATABASE_URL, readUrl: process.env.BENCH_READ_URL });
  console.log(JSON.stringify(out, null, 2));
}
