import type { MigrationInterface, QueryRunner } from 'typeorm';
import { KEYED_INDEXES, REBUILT_TABLES } from './1764750000000-actor-keys-tables.js';
import { withoutForeignKeys } from './without-foreign-keys.js';

/**
 * Every per-actor table keyed by its actor, as on PostgreSQL (1764750000000-actor-keys there,
 * which says why): the same entities serve both databases. The child tables of a conversation
 * get the column first (with an empty default, since SQLite adds a NOT NULL column only with
 * one), filled from the conversations; then the tables are rebuilt with their new keys. A
 * rebuild keeps each row's rowid, which the full-text tables (external content) and
 * `messages_fts_owners` are keyed by, and makes the tables' indexes, views and triggers again.
 * Foreign keys are off meanwhile and checked at the end (without-foreign-keys.ts).
 */
export class ActorColumns1764750000000 implements MigrationInterface {
  name = 'ActorColumns1764750000000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await withoutForeignKeys(q, async () => {
      for (const table of ['messages', 'conversation_tags', 'summaries', 'threads']) {
        await q.query(`ALTER TABLE "${table}" ADD COLUMN "actor" varchar(200) NOT NULL DEFAULT ('')`);
        await q.query(`
          UPDATE "${table}"
            SET "actor" = COALESCE(
              (SELECT c."actor" FROM "conversations" c WHERE c."id" = "${table}"."conversation_id"),
              ''
            )
        `);
      }
      await q.query(`ALTER TABLE "response_records" ADD COLUMN "actor" varchar(200) NOT NULL DEFAULT ('')`);
      await q.query(`
        UPDATE "response_records"
          SET "actor" = COALESCE(
            (SELECT m."actor" FROM "messages" m WHERE m."id" = "response_records"."message_id"),
            ''
          )
      `);
      await rebuild(q, 'keyed');
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await withoutForeignKeys(q, async () => {
      await rebuild(q, 'before');
      for (const table of ['messages', 'conversation_tags', 'summaries', 'threads', 'response_records']) {
        await q.query(`ALTER TABLE "${table}" DROP COLUMN "actor"`);
      }
    });
  }
}

/** Rebuilds REBUILT_TABLES as `to`, keeping every row (and its rowid), index, view and trigger. */
async function rebuild(q: QueryRunner, to: 'keyed' | 'before'): Promise<void> {
  const tables = REBUILT_TABLES.map((t) => t.table);
  const saved = (await q.query(
    `
      SELECT "type", "name", "sql"
        FROM "sqlite_master"
        WHERE "sql" IS NOT NULL
          AND ("type" IN ('view', 'trigger') OR ("type" = 'index' AND "tbl_name" IN (${tables.map(() => '?').join(', ')})))
    `,
    tables,
  )) as { type: 'index' | 'view' | 'trigger'; name: string; sql: string }[];
  // A view or trigger naming a table while it is dropped would fail the rename.
  for (const s of saved) if (s.type !== 'index') await q.query(`DROP ${s.type.toUpperCase()} "${s.name}"`);
  for (const { table, ...ddl } of REBUILT_TABLES) {
    const temporary = `temporary_${table}`;
    await q.query(ddl[to].replace('%TABLE%', temporary));
    const columns = ((await q.query(`PRAGMA table_info("${temporary}")`)) as { name: string }[])
      .map((c) => `"${c.name}"`)
      .join(', ');
    await q.query(`INSERT INTO "${temporary}" ("rowid", ${columns}) SELECT "rowid", ${columns} FROM "${table}"`);
    await q.query(`DROP TABLE "${table}"`);
    await q.query(`ALTER TABLE "${temporary}" RENAME TO "${table}"`);
  }
  for (const type of ['index', 'view', 'trigger'] as const) {
    for (const s of saved) if (s.type === type) await q.query(KEYED_INDEXES[s.name]?.[to] ?? s.sql);
  }
}
