// Preloaded (--import) into a server on PostgreSQL: counts every statement the `pg` driver
// sends, by SQL text. `pg` sends each `client.query` as one message batch and waits for its
// answer before the next (no pipelining), so a statement is one round trip to the server.
// SIGWINCH writes the counts so far to PG_STATEMENT_COUNT_FILE as JSON and starts afresh (the
// bench sends it after warm-up, then after the measured load). Counting is a Map update.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const pg = createRequire(import.meta.url)('pg');
const counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, ...rest) {
  const text = typeof config === 'string' ? config : (config?.text ?? config?.name ?? '?');
  const key = String(text).replace(/\s+/g, ' ').trim();
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, ...rest);
};

// SIGWINCH: its default action is to do nothing, and the service's shutdown hooks do not listen to it.
process.on('SIGWINCH', () => {
  const file = process.env.PG_STATEMENT_COUNT_FILE;
  if (file) writeFileSync(file, JSON.stringify([...counts].map(([sql, calls]) => ({ sql, calls }))));
  counts.clear();
});
