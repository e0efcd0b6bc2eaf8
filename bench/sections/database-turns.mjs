// Chat turns over HTTP on SQLite and on PostgreSQL, one after the other, for sizing
// (docs/operations.md). PostgreSQL comes from BENCH_DATABASE_URL (a database this bench may fill;
// it uses a schema of its own, dropped at the end). Runs alone:
//   BENCH_DATABASE_URL=postgres://... node bench/sections/database-turns.mjs
// BENCH_RATE_LIMIT_PER_MINUTE=1000000 turns the per-actor limiter on (off in single-user mode by
// default), to price its counter: on PostgreSQL one more statement per request.
import { join } from 'node:path';
import pg from 'pg';
import { DIST_MAIN, round, startServer, tempDir, withServerLog } from '../lib/common.mjs';
import { load, seedOverHttp, userMessage } from '../lib/load.mjs';

export async function databaseTurns({
  postgresUrl,
  durationS = 10,
  repetitions = 3,
  connections = 10,
  serverEnv = {},
} = {}) {
  const tmp = tempDir('db-turns');
  const schema = `bench_${Date.now()}`;
  const targets = { sqlite: `sqlite:${join(tmp.dir, 'turns.sqlite')}` };
  if (postgresUrl) {
    const url = new URL(postgresUrl);
    url.searchParams.set('schema', schema);
    targets.postgres = url.toString();
  }
  const results = {};
  try {
    for (const [name, databaseUrl] of Object.entries(targets)) {
      const server = await startServer({
        script: DIST_MAIN,
        env: { ...serverEnv, DATABASE_URL: databaseUrl },
        label: `turns-${name}`,
      });
      try {
        const ids = await withServerLog(server, seedOverHttp(server.port, { conversations: 100, turns: 3 }));
        let n = 2_000_000;
        const runs = [];
        for (let r = 0; r < repetitions; r++) {
          runs.push(
            await load({
              port: server.port,
              method: 'POST',
              path: '/api/chat',
              connections,
              durationS,
              body: (i) => ({ message: userMessage(n++), conversationId: ids[i % ids.length] }),
            }),
          );
        }
        const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
        results[name] = {
          turnsPerS: round(median(runs.map((x) => x.perSecond)), 0),
          p50Ms: round(median(runs.map((x) => x.latencyMs.p50)), 2),
          p99Ms: round(median(runs.map((x) => x.latencyMs.p99)), 2),
          runs: runs.length,
        };
      } finally {
        await server.stop();
      }
    }
  } finally {
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const rateLimit = process.env.BENCH_RATE_LIMIT_PER_MINUTE;
  const serverEnv = rateLimit ? { RATE_LIMIT_PER_MINUTE: rateLimit } : {};
  console.log(JSON.stringify(await databaseTurns({ postgresUrl: process.env.BENCH_DATABASE_URL, serverEnv }), null, 2));
}
