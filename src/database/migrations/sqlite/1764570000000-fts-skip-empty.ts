import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A turn inserts its reply empty and fills it when the model is done: indexing the empty row
 * and then replacing it doubled the full-text work of every turn. Empty contents are no longer
 * indexed (SQLite).
 */
export class FtsSkipEmpty1764570000000 implements MigrationInterface {
  name = 'FtsSkipEmpty1764570000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "messages_fts_ai"`);
    await q.query(`DROP TRIGGER "messages_fts_ad"`);
    await q.query(`DROP TRIGGER "messages_fts_au"`);
    await q.query(`
      INSERT INTO "messages_fts"("messages_fts", rowid, "content")
        SELECT 'delete', rowid, "content"
        FROM "messages"
        WHERE "content" = ''
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

  async down(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
    await q.query(`
      CREATE TRIGGER "messages_fts_ai" AFTER INSERT ON "messages"
      BEGIN
        INSERT INTO "messages_fts"(rowid, "content") VALUES (new.rowid, new."content");
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ad" AFTER DELETE ON "messages"
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content") VALUES ('delete', old.rowid, old."content");
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_au" AFTER UPDATE OF "content" ON "messages"
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content") VALUES ('delete', old.rowid, old."content");
        INSERT INTO "messages_fts"(rowid, "content") VALUES (new.rowid, new."content");
      END
    `);
    await q.query(`INSERT INTO "messages_fts"("messages_fts") VALUES ('rebuild')`);
  }
}
