import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The readiness check's write probe (`storage_probe`, never holds a row between probes), and
 * full-text search over a view of the non-empty messages: empty messages (a reply before its
 * first text, a reply that failed before any) are not indexed, and with the messages table
 * itself as the index's content, FTS5's `integrity-check` counted each of them as corruption.
 */
export class StorageProbeFtsView1764580000000 implements MigrationInterface {
  name = 'StorageProbeFtsView1764580000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "storage_probe" ("id" integer PRIMARY KEY NOT NULL, "filler" blob)`);
    await q.query(`
      CREATE VIEW "messages_indexed" AS
        SELECT rowid AS rowid, "content"
        FROM "messages"
        WHERE "content" <> ''
    `);
    // The triggers (1764570000000) name the index, not its content table: they stay as they are.
    await q.query(`DROP TABLE "messages_fts"`);
    await q.query(`
      CREATE VIRTUAL TABLE "messages_fts" USING fts5(
        "content",
        content='messages_indexed',
        content_rowid='rowid',
        tokenize='unicode61 remove_diacritics 2'
      )
    `);
    await q.query(`INSERT INTO "messages_fts"("messages_fts") VALUES ('rebuild')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "messages_fts"`);
    await q.query(`
      CREATE VIRTUAL TABLE "messages_fts" USING fts5(
        "content",
        content='messages',
        content_rowid='rowid',
        tokenize='unicode61 remove_diacritics 2'
      )
    `);
    await q.query(`INSERT INTO "messages_fts"("messages_fts") VALUES ('rebuild')`);
    await q.query(`
      INSERT INTO "messages_fts"("messages_fts", rowid, "content")
        SELECT 'delete', rowid, "content"
        FROM "messages"
        WHERE "content" = ''
    `);
    await q.query(`DROP VIEW "messages_indexed"`);
    await q.query(`DROP TABLE "storage_probe"`);
  }
}
