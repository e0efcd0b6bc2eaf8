import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `messages_fts_owners`: each message's rowid with its conversation's rowid, kept by triggers
 * (SQLite). A search walks the newest matches of every actor and keeps the caller's: joined to
 * `messages` and `conversations` that meant two lookups per match in wide tables (most of the
 * time of two common words); this table holds two integers a row, so the walk stays in a few
 * pages. Rowids, like the full-text index's: rebuild it with the index after a VACUUM
 * (docs/operations.md). The search still checks the owner on `conversations` for what it returns.
 * And `messages_fts_rows`, FTS5's own view of how many rows hold each word (no storage of its
 * own), which counts a word's rows about twice as fast as a MATCH does.
 */
export class SearchOwners1764710000000 implements MigrationInterface {
  name = 'SearchOwners1764710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "messages_fts_owners" (
        "message_rowid" integer PRIMARY KEY NOT NULL,
        "conversation_rowid" integer NOT NULL
      )
    `);
    await q.query(`
      INSERT INTO "messages_fts_owners" ("message_rowid", "conversation_rowid")
        SELECT m.rowid, c.rowid
        FROM "messages" m
        JOIN "conversations" c ON c."id" = m."conversation_id"
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_owners_ai" AFTER INSERT ON "messages"
      BEGIN
        INSERT OR REPLACE INTO "messages_fts_owners" ("message_rowid", "conversation_rowid")
          SELECT new.rowid, c.rowid FROM "conversations" c WHERE c."id" = new."conversation_id";
      END
    `);
    await q.query(`CREATE VIRTUAL TABLE "messages_fts_rows" USING fts5vocab("messages_fts", 'row')`);
    await q.query(`
      CREATE TRIGGER "messages_fts_owners_ad" AFTER DELETE ON "messages"
      BEGIN
        DELETE FROM "messages_fts_owners" WHERE "message_rowid" = old.rowid;
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_owners_au" AFTER UPDATE OF "conversation_id" ON "messages"
      BEGIN
        INSERT OR REPLACE INTO "messages_fts_owners" ("message_rowid", "conversation_rowid")
          SELECT new.rowid, c.rowid FROM "conversations" c WHERE c."id" = new."conversation_id";
      END
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_owners_${suffix}"`);
    await q.query(`DROP TABLE "messages_fts_rows"`);
    await q.query(`DROP TABLE "messages_fts_owners"`);
  }
}
