import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Long-term memories (SQLite): the `memories` table with its FTS5 index (kept by triggers, as
 * messages_fts is), pinned messages, the memories each reply was given, and the memory switches
 * of agents and conversations.
 */
export class Memories1764630000000 implements MigrationInterface {
  name = 'Memories1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "memories" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "agent_id" varchar(36),
        "text" text NOT NULL,
        "tokens" integer,
        "pinned" smallint NOT NULL DEFAULT (0),
        "source_conversation_id" varchar(36),
        "source_message_id" varchar(36),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )
    `);
    await q.query(`CREATE INDEX "idx_memories_actor_pinned" ON "memories" ("actor", "updated_at") WHERE pinned = 1`);
    await q.query(`CREATE INDEX "idx_memories_actor_updated" ON "memories" ("actor", "updated_at", "id")`);
    await q.query(`CREATE INDEX "idx_memories_updated" ON "memories" ("updated_at")`);
    await q.query(`
      CREATE VIRTUAL TABLE "memories_fts" USING fts5(
        "text",
        content='memories',
        content_rowid='rowid',
        tokenize='unicode61 remove_diacritics 2'
      )
    `);
    await q.query(`
      CREATE TRIGGER "memories_fts_ai" AFTER INSERT ON "memories"
      BEGIN
        INSERT INTO "memories_fts"(rowid, "text") VALUES (new.rowid, new."text");
      END
    `);
    await q.query(`
      CREATE TRIGGER "memories_fts_ad" AFTER DELETE ON "memories"
      BEGIN
        INSERT INTO "memories_fts"("memories_fts", rowid, "text") VALUES ('delete', old.rowid, old."text");
      END
    `);
    await q.query(
      `CREATE TRIGGER "memories_fts_au" AFTER UPDATE OF "text" ON "memories" WHEN old."text" <> new."text" BEGIN ` +
        `INSERT INTO "memories_fts"("memories_fts", rowid, "text") VALUES ('delete', old.rowid, old."text"); ` +
        `INSERT INTO "memories_fts"(rowid, "text") VALUES (new.rowid, new."text"); END`,
    );
    await q.query(`ALTER TABLE "agents" ADD COLUMN "memory_mode" varchar(8)`);
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "memory" boolean NOT NULL DEFAULT (1)`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "pinned" smallint NOT NULL DEFAULT (0)`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "memory_ids" text`);
    await q.query(`
      CREATE INDEX "idx_messages_pinned" ON "messages" ("conversation_id", "thread", "seq")
        WHERE pinned = 1 AND on_path = 1
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_messages_pinned"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "memory_ids"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "pinned"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "memory"`);
    await q.query(`ALTER TABLE "agents" DROP COLUMN "memory_mode"`);
    for (const suffix of ['ai', 'ad', 'au']) await q.query(`DROP TRIGGER "memories_fts_${suffix}"`);
    await q.query(`DROP TABLE "memories_fts"`);
    await q.query(`DROP TABLE "memories"`);
  }
}
