// What a turn costs in storage, for the capacity plan (docs/operations.md, "Capacity plan"):
// bytes per message in each table and index, on SQLite (dbstat) and on PostgreSQL
// (pg_relation_size), and the WAL PostgreSQL writes per turn. The built service is seeded over
// HTTP with the echo model (a question and a reply of about 64 characters each), in a fresh
// SQLite file and, with BENCH_DATABASE_URL, a fresh schema (dropped at the end).
//   node bench/sections/capacity.mjs [--quick]            (SQLite)
//   BENCH_DATABASE_URL=postgres://… node bench/sections/capacity.mjs
// The WAL figure is the cluster's position moving: give it a cluster nothing else writes to.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { DIST_MAIN, round, startServer, withServerLog } from '../lib/common.mjs';
import { seedOverHttp } from '../lib/load.mjs';

export async function capacity({ postgresUrl, conversations = 200, turns = 10 }, log = console.error) {
  if (!existsSync(DIST_MAIN)) throw new Error('run "npm run build" first');
  const result = {
    conversations,
    turns,
    messages: conversations * turns * 2,
    sqlite: await sqliteSizes({ conversations, turns }, log),
  };
  if (postgresUrl) result.postgres = await postgresSizes({ postgresUrl, conversations, turns }, log);
  return result;
}

async function sqliteSizes({ conversations, turns }, log) {
  const dir = mkdtempSync(join(os.tmpdir(), 'chat-memory-bench-capacity-'));
  const file = join(dir, 'chat.sqlite');
  try {
    const server = await startServer({
      label: 'service (SQLite)',
      script: DIST_MAIN,
      env: { DATABASE_URL: `sqlite:${file}` },
    });
    log(`  SQLite: ${conversations} conversations x ${turns} turns`);
    await withServerLog(server, seedOverHttp(server.port, { conversations, turns }));
    await server.stop();
    const db = new Database(file, { readonly: false });
    db.pragma('wal_checkpoint(TRUNCATE)');
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all();
    const messages = db
      .prepare('SELECT count(*) AS n, SUM(length(CAST(content AS BLOB))) AS content FROM messages')
      .get();
    const pageSize = db.pragma('page_size', { simple: true });
    const pages = db.pragma('page_count', { simple: true });
    db.close();
    return perMessage(rows, messages.n, messages.content, pageSize * pages);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSizes({ postgresUrl, conversations, turns }, log) {
  const schema = `bench_capacity_${Date.now()}`;
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', schema);
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  let server;
  try {
    server = await startServer({
      label: 'service (PostgreSQL)',
      script: DIST_MAIN,
      env: { DATABASE_URL: url.toString() },
    });
    const lsn = async () => (await client.query('SELECT pg_current_wal_lsn() AS lsn')).rows[0].lsn;
    const start = await lsn();
    log(`  PostgreSQL: ${conversations} conversations x ${turns} turns`);
    await withServerLog(server, seedOverHttp(server.port, { conversations, turns }));
    const walBytes = Number(
      (await client.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes', [start])).rows[0].bytes,
    );
    await server.stop();
    await client.query(`VACUUM ANALYZE`);
    const { rows } = await client.query(
      `SELECT c.relname AS name, pg_relation_size(c.oid) + COALESCE(pg_relation_size(c.reltoastrelid), 0) AS bytes FROM pg_class c ` +
        `WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'i') ORDER BY bytes DESC`,
      [schema],
    );
    const messages = (
      await client.query(`SELECT count(*) AS n, SUM(octet_length(content)) AS content FROM "${schema}".messages`)
    ).rows[0];
    const total = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
    return {
      ...perMessage(
        rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) })),
        Number(messages.n),
        Number(messages.content),
        total,
      ),
      walBytesPerTurn: round(walBytes / (conversations * turns), 0),
    };
  } finally {
    await server?.stop().catch(() => undefined);
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await client.end();
  }
}

function perMessage(rows, messages, contentBytes, totalBytes) {
  return {
    messages,
    contentBytesPerMessage: round(contentBytes / messages, 1),
    bytesPerMessage: round(totalBytes / messages, 0),
    byObject: Object.fromEntries(rows.filter((r) => r.bytes > 0).map((r) => [r.name, round(r.bytes / messages, 1)])),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const out = await capacity({
    postgresUrl: process.env.BENCH_DATABASE_URL,
    conversations: quick ? 50 : 200,
    turns: 10,
  });
  console.log(JSON.stringify(out, null, 2));
}
