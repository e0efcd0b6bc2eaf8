// Preloaded (--import) into the profiled server of `npm run bench -- --profile`: times every
// better-sqlite3 statement the server runs, by SQL text. SIGWINCH starts the count afresh (the
// bench sends it after seeding); on exit the totals go to STATEMENT_TIMING_FILE as JSON.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const Database = createRequire(import.meta.url)('better-sqlite3');
const stats = new Map();
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function timedPrepare(sql, ...rest) {
  const statement = prepare.call(this, sql, ...rest);
  const text = String(sql).replace(/\s+/g, ' ').trim();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method];
    statement[method] = function timed(...args) {
      const t = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const entry = stats.get(text) ?? { calls: 0, ms: 0 };
        entry.calls++;
        entry.ms += Number(process.hrtime.bigint() - t) / 1e6;
        stats.set(text, entry);
      }
    };
  }
  return statement;
};

// SIGWINCH: its default action is to do nothing, and Nest's shutdown hooks do not listen to it (they take SIGUSR2).
process.on('SIGWINCH', () => stats.clear());
process.on('exit', () => {
  const file = process.env.STATEMENT_TIMING_FILE;
  if (file) writeFileSync(file, JSON.stringify([...stats].map(([sql, s]) => ({ sql, ...s }))));
});
