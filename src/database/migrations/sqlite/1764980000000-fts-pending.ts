import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the full-text index holds of a row: its text and its actor's owner token (migration 1764810000000). */
const row = (at: 'new' | 'old') => `${at}.rowid, ${at}."content", hex(${at}."actor") || '0'`;
/** A row the index is for: text, and not a reply still streaming. */
const indexed = (at: 'new' | 'old') => `${at}."content" <> '' AND ${at}."status" <> 'streaming'`;
/** The row is noted, not indexed yet. */
const pending = (at: 'new' | 'old') =>
  `EXISTS (SELECT 1 FROM "messages_fts_pending" p WHERE p."actor" = ${at}."actor" AND p."message_rowid" = ${at}.rowid)`;

/**
 * Messages reach the full-text index in batches (SQLite). Every commit that indexed a message
 * wrote a segment of its own into FTS5 (a leaf, the structure record, the segment index, the
 * row's size: five pages or more, and merges later), most of the WAL a turn appended. The
 * triggers now note the row in `messages_fts_pending` (one small page), and
 * `MessageIndexBacklog` indexes the noted rows together, 2,000 a transaction: after a short
 * delay, and before any search reads the index, so a search still sees every message written
 * before it.
 *
 * The rule the triggers keep: a row the index is for is either in `messages_fts` with its
 * current text, or in `messages_fts_pending`, never both. The view the index reads its text
 * from (`messages_indexed`, what 'rebuild' and 'integrity-check' read) leaves noted rows out.
 * A note is keyed by the message's actor first: a turn's recall asks whether any of its actor's
 * messages wait, and finds them without reading other actors' notes.
 */
export class FtsPending1764980000000 implements MigrationInterface {
  name = 'FtsPending1764980000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "messages_fts_pending" (
        "actor" varchar(200) NOT NULL,
        "message_rowid" integer NOT NULL,
        PRIMARY KEY ("actor", "message_rowid")
      ) WITHOUT ROWID
    `);
    await q.query(`DROP VIEW "messages_indexed"`);
    await q.query(`
      CREATE VIEW "messages_indexed" AS
        SELECT rowid AS rowid, "content", hex("actor") || '0' AS "owner"
        FROM "messages" m
        WHERE "content" <> '' AND "status" <> 'streaming'
          AND NOT EXISTS (SELECT 1 FROM "messages_fts_pending" p WHERE p."actor" = m."actor" AND p."message_rowid" = m.rowid)
    `);
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
    await q.query(`
      CREATE TRIGGER "messages_fts_ai" AFTER INSERT ON "messages"
      WHEN ${indexed('new')}
      BEGIN
        INSERT OR IGNORE INTO "messages_fts_pending"("actor", "message_rowid") VALUES (new."actor", new.rowid);
      END
    `);
    // A noted row was never indexed: forgetting the note is all its removal needs.
    await q.query(`
      CREATE TRIGGER "messages_fts_ad" AFTER DELETE ON "messages"
      WHEN ${indexed('old')}
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content", "owner")
          SELECT 'delete', ${row('old')} WHERE NOT ${pending('old')};
        DELETE FROM "messages_fts_pending" WHERE "actor" = old."actor" AND "message_rowid" = old.rowid;
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_au" AFTER UPDATE OF "content", "status", "actor" ON "messages"
      WHEN (old."content" <> new."content" OR old."status" <> new."status" OR old."actor" <> new."actor")
        AND NOT (old."status" = 'streaming' AND new."status" = 'streaming')
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content", "owner")
          SELECT 'delete', ${row('old')} WHERE ${indexed('old')} AND NOT ${pending('old')};
        DELETE FROM "messages_fts_pending" WHERE "actor" = old."actor" AND "message_rowid" = old.rowid
          AND (NOT (${indexed('new')}) OR old."actor" <> new."actor");
        INSERT OR IGNORE INTO "messages_fts_pending"("actor", "message_rowid") SELECT new."actor", new.rowid WHERE ${indexed('new')};
      END
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
    await q.query(`
      INSERT INTO "messages_fts"(rowid, "content", "owner")
        SELECT m.rowid, m."content", hex(m."actor") || '0'
        FROM "messages_fts_pending" p CROSS JOIN "messages" m ON m.rowid = p."message_rowid"
    `);
    await q.query(`DROP VIEW "messages_indexed"`);
    await q.query(`DROP TABLE "messages_fts_pending"`);
    await q.query(`
      CREATE VIEW "messages_indexed" AS
        SELECT rowid AS rowid, "content", hex("actor") || '0' AS "owner"
        FROM "messages"
        WHERE "content" <> '' AND "status" <> 'streaming'
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ai" AFTER INSERT ON "messages"
      WHEN ${indexed('new')}
      BEGIN
        INSERT INTO "messages_fts"(rowid, "content", "owner") VALUES (${row('new')});
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_ad" AFTER DELETE ON "messages"
      WHEN ${indexed('old')}
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content", "owner") VALUES ('delete', ${row('old')});
      END
    `);
    await q.query(`
      CREATE TRIGGER "messages_fts_au" AFTER UPDATE OF "content", "status", "actor" ON "messages"
      WHEN (old."content" <> new."content" OR old."status" <> new."status" OR old."actor" <> new."actor")
        AND NOT (old."status" = 'streaming' AND new."status" = 'streaming')
      BEGIN
        INSERT INTO "messages_fts"("messages_fts", rowid, "content", "owner")
          SELECT 'delete', ${row('old')} WHERE ${indexed('old')};
        INSERT INTO "messages_fts"(rowid, "content", "owner")
          SELECT ${row('new')} WHERE ${indexed('new')};
      END
    `);
  }
}
