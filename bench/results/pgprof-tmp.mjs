import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, DIST_MAIN, startServer } from '/work/wt/pgturn/bench/lib/common.mjs';
import { load, seedOverHttp, userMessage } from '/work/wt/pgturn/bench/lib/load.mjs';
const schema = `bench_prof_${Date.now()}`;
const script = process.argv[2] === 'ref' ? join(BENCH_DIR, 'reference-server-pg.mjs') : DIST_MAIN;
const s = await startServer({ label: 'p', script, env: { DATABASE_URL: `postgres://postgres@127.0.0.1:55432/bench_pgturn?schema=${schema}` },
  nodeArgs: ['--cpu-prof', '--cpu-prof-dir=/tmp/pgprof', `--import=${pathToFileURL(join(BENCH_DIR, 'lib', 'exit-on-signal.mjs')).href}`] });
const ids = await seedOverHttp(s.port, { conversations: 100, turns: 3 });
let n = 1;
const r = await load({ port: s.port, method: 'POST', path: '/api/chat', connections: 10, durationS: Number(process.argv[3] ?? 10),
  body: (i) => ({ message: userMessage(n++), conversationId: ids[i % ids.length] }) });
console.log(r.perSecond, r.latencyMs.p50);
await s.stop();
import pg from 'pg'; const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:55432/bench_pgturn' }); await c.connect(); await c.query(`DROP SCHEMA "${schema}" CASCADE`); await c.end();
