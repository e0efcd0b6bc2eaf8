import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Archive, pin and tags on conversations, and full-text search (SQLite). The FTS5 tables index
 * `messages.content` and `conversations.title` as external content (keyed by rowid) and are
 * kept in sync by triggers. After a VACUUM, rebuild them: see docs/operations.md.
 */
export class SearchTags1764550000000 implements MigrationInterface {
  name = 'SearchTags1764550000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "archived" boolean NOT NULL DEFAULT (0)`);
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "pinned" boolean NOT NULL DEFAULT (0)`);
    await q.query(`
      CREATE TABLE "conversation_tags" (
        "conversation_id" varchar(36) NOT NULL,
        "tag" varchar(50) NOT NULL,
        CONSTRAINT "FK_3c627a7d45d66262ae48c1584ae" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "tag")
      )
    `);
    await q.query(`CREATE INDEX "idx_conversation_tags_tag" ON "conversation_tags" ("tag", "conversation_id")`);

    for (const [fts, table, column] of [
      ['messages_fts', 'messages', 'content'],
      ['conversations_fts', 'conversations', 'title'],
    ]) {
      await q.query(`
        CREATE VIRTUAL TABLE "${fts}" USING fts5(
          "${column}",
          content='${table}',
          content_rowid='rowid',
          tokenize='unicode61 remove_diacritics 2'
        )
      `);
      await q.query(`INSERT INTO "${fts}"("${fts}") VALUES ('rebuild')`);
      await q.query(`
        CREATE TRIGGER "${fts}_ai" AFTER INSERT ON "${table}"
        BEGIN
          INSERT INTO "${fts}"(rowid, "${column}") VALUES (new.rowid, new."${column}");
        END
      `);
      await q.query(`
        CREATE TRIGGER "${fts}_ad" AFTER DELETE ON "${table}"
        BEGIN
          INSERT INTO "${fts}"("${fts}", rowid, "${column}") VALUES ('delete', old.rowid, old."${column}");
        END
      `);
      await q.query(`
        CREATE TRIGGER "${fts}_au" AFTER UPDATE OF "${column}" ON "${table}"
        BEGIN
          INSERT INTO "${fts}"("${fts}", rowid, "${column}") VALUES ('delete', old.rowid, old."${column}");
          INSERT INTO "${fts}"(rowid, "${column}") VALUES (new.rowid, new."${column}");
        END
      `);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const fts of ['messages_fts', 'conversations_fts']) {
      for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "${fts}_${suffix}"`);
      await q.query(`DROP TABLE "${fts}"`);
    }
    await q.query(`DROP INDEX "idx_conversation_tags_tag"`);
    await q.query(`DROP TABLE "conversation_tags"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "pinned"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "archived"`);
  }
}
