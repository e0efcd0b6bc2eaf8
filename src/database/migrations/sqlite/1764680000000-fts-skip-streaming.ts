import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reply being generated saves its whole text every STREAM_FLUSH_MS, and each save re-indexed
 * it (the old text deleted from the full-text index, the new one tokenized and added): most of
 * the database's work with many replies streaming. A `streaming` reply is now indexed once,
 * when it ends (SQLite). Rows streaming now leave the index, since the triggers no longer
 * delete them from it.
 */
export class FtsSkipStreaming1764680000000 implements MigrationInterface {
  name = 'FtsSkipStreaming1764680000000';

  async up(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
    await q.query(`
      INSERT INTO "messages_fts"("messages_fts", rowid, "content")
        SELECT 'delete', rowid, "content"
        FROM "messages"
        WHERE "status" = 'streaming' AND "content" <> ''
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ai" AFTER INSERT ON "messages"
      WHEN new."content" <> '' AND new."status" <> 'streaming'
      BEGIN
        INSERT INTO "messages_fts"(rowid, "content") VALUES (new.rowid, new."content");
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ad" AFTER DELETE ON "messages"
      WHEN old."content" <> '' AND old."status" <> 'streaming'
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content") VALUES ('delete', old.rowid, old."content");
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_au" AFTER UPDATE OF "content", "status" ON "messages"
      WHEN (old."content" <> new."content" OR old."status" <> new."status")
        AND NOT (old."status" = 'streaming' AND new."status" = 'streaming')
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content")
          SELECT 'delete', old.rowid, old."content" WHERE old."content" <> '' AND old."status" <> 'streaming';
        INSERT INTO "messages_fts"(rowid, "content")
          SELECT new.rowid, new."content" WHERE new."content" <> '' AND new."status" <> 'streaming';
      END
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
    await q.query(`
      INSERT INTO "messages_fts"(rowid, "content")
        SELECT rowid, "content"
        FROM "messages"
        WHERE "status" = 'streaming' AND "content" <> ''
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ai" AFTER INSERT ON "messages"
      WHEN new."content" <> ''
      BEGIN
        INSERT INTO "messages_fts"(rowid, "content") VALUES (new.rowid, new."content");
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ad" AFTER DELETE ON "messages"
      WHEN old."content" <> ''
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content") VALUES ('delete', old.rowid, old."content");
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_au" AFTER UPDATE OF "content" ON "messages"
      WHEN old."content" <> new."content"
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content")
          SELECT 'delete', old.rowid, old."content" WHERE old."content" <> '';
        INSERT INTO "messages_fts"(rowid, "content")
          SELECT new.rowid, new."content" WHERE new."content" <> '';
      END
    `);
  }
}
