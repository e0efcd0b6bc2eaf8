import type { MigrationInterface, QueryRunner } from 'typeorm';

const TOKENIZE_BEFORE = 'unicode61 remove_diacritics 2';
const TOKENIZE = `porter ${TOKENIZE_BEFORE}`;

/**
 * Ranked search (SQLite): the full-text indexes stem (`porter` over `unicode61`), and
 * `messages_fts` gains an `owner` column holding one token per actor (`hex(actor) || '0'`,
 * which the stemmer leaves as it is), so a search walks only the caller's rows of a term
 * inside the index and counts the caller's rows only: ranking uses the caller's own statistics.
 * Streaming replies stay out of the index, as before. `messages_fts_owners` and the
 * vocabulary table `messages_fts_rows`, which served the walk over every actor's matches and
 * bm25's counts over all actors, are gone.
 */
export class RankedSearch1764810000000 implements MigrationInterface {
  name = 'RankedSearch1764810000000';

  async up(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) {
      await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
      await q.query(`DROP TRIGGER "messages_fts_owners_${suffix}"`);
    }
    await q.query(`DROP TABLE "messages_fts_rows"`);
    await q.query(`DROP TABLE "messages_fts_owners"`);
    await q.query(`DROP TABLE "messages_fts"`);
    await q.query(`DROP VIEW "messages_indexed"`);
    await q.query(`
      CREATE VIEW "messages_indexed" AS
        SELECT rowid AS rowid, "content", hex("actor") || '0' AS "owner"
        FROM "messages"
        WHERE "content" <> '' AND "status" <> 'streaming'
    `);
    await q.query(`
      CREATE VIRTUAL TABLE "messages_fts" USING fts5(
        "content",
        "owner",
        content='messages_indexed',
        content_rowid='rowid',
        tokenize='${TOKENIZE}'
      )
    `);
    await q.query(`INSERT INTO "messages_fts"("messages_fts") VALUES ('rebuild')`);
    const row = (at: 'new' | 'old') => `${at}.rowid, ${at}."content", hex(${at}."actor") || '0'`;
    const indexed = (at: 'new' | 'old') => `${at}."content" <> '' AND ${at}."status" <> 'streaming'`;
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
    await rebuildTitles(q, TOKENIZE);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "messages_fts_${suffix}"`);
    await q.query(`DROP TABLE "messages_fts"`);
    await q.query(`DROP VIEW "messages_indexed"`);
    await q.query(`
      CREATE VIEW "messages_indexed" AS
        SELECT rowid AS rowid, "content"
        FROM "messages"
        WHERE "content" <> ''
    `);
    await q.query(`
      CREATE VIRTUAL TABLE "messages_fts" USING fts5(
        "content",
        content='messages_indexed',
        content_rowid='rowid',
        tokenize='${TOKENIZE_BEFORE}'
      )
    `);
    await q.query(`
      INSERT INTO "messages_fts"(rowid, "content")
        SELECT rowid, "content"
        FROM "messages"
        WHERE "content" <> '' AND "status" <> 'streaming'
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
    await rebuildTitles(q, TOKENIZE_BEFORE);
  }
}

/** conversations_fts made again with another tokenizer; its triggers name it and stay. */
async function rebuildTitles(q: QueryRunner, tokenize: string): Promise<void> {
  await q.query(`DROP TABLE "conversations_fts"`);
  await q.query(`
    CREATE VIRTUAL TABLE "conversations_fts" USING fts5(
      "title",
      content='conversations',
      content_rowid='rowid',
      tokenize='${tokenize}'
    )
  `);
  await q.query(`INSERT INTO "conversations_fts"("conversations_fts") VALUES ('rebuild')`);
}
