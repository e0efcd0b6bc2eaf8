import type { MigrationInterface, QueryRunner } from 'typeorm';
import { withoutForeignKeys } from './without-foreign-keys.js';

/** Agents, conversation state, threads, and tool calls on replies (SQLite). */
export class AgentsStateThreads1764520000000 implements MigrationInterface {
  name = 'AgentsStateThreads1764520000000';

  /**
   * Runs outside TypeORM's transaction: rebuilding `conversations` (SQLite cannot add a named
   * foreign key in place) needs foreign keys off, or dropping the old table would cascade-delete
   * every message. That pragma only works outside a transaction, so this opens its own.
   */
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await withoutForeignKeys(q, () => this.change(q));
  }

  private async change(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "agents" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "name" varchar(100) NOT NULL,
        "emoji" varchar(32),
        "description" text,
        "system_prompt" text,
        "model" varchar(200),
        "temperature" real,
        "max_tokens" integer,
        "tools" text NOT NULL,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )
    `);
    await q.query(`CREATE INDEX "idx_agents_actor_name" ON "agents" ("actor", "name")`);

    // Existing conversations get no agent and an empty state.
    await q.query(`DROP INDEX "idx_conversations_actor_updated"`);
    await q.query(`
      CREATE TABLE "temporary_conversations" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "title" varchar(200) NOT NULL,
        "last_seq" integer NOT NULL DEFAULT (0),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "agent_id" varchar(36),
        "state" text NOT NULL,
        CONSTRAINT "FK_9f32ead8384a1a92e073a7c006a" FOREIGN KEY ("agent_id") REFERENCES "agents" ("id") ON DELETE SET NULL ON UPDATE NO ACTION
      )
    `);
    await q.query(`
      INSERT INTO "temporary_conversations"("id", "actor", "title", "last_seq", "created_at", "updated_at", "state")
        SELECT "id", "actor", "title", "last_seq", "created_at", "updated_at", '{}'
        FROM "conversations"
    `);
    await q.query(`DROP TABLE "conversations"`);
    await q.query(`ALTER TABLE "temporary_conversations" RENAME TO "conversations"`);
    await q.query(`CREATE INDEX "idx_conversations_actor_updated" ON "conversations" ("actor", "updated_at", "id")`);
    await q.query(
      `CREATE INDEX "idx_conversations_actor_agent_updated" ON "conversations" ("actor", "agent_id", "updated_at", "id")`,
    );

    await q.query(`
      CREATE TABLE "threads" (
        "conversation_id" varchar(36) NOT NULL,
        "name" varchar(64) NOT NULL,
        "system_prompt" text,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        CONSTRAINT "FK_9f17d3cfcd65548566280a18283" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "name")
      )
    `);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "thread" varchar(64) NOT NULL DEFAULT ('main')`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "tool_calls" text`);
    await q.query(
      `CREATE INDEX "idx_messages_conversation_thread_seq" ON "messages" ("conversation_id", "thread", "seq")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_messages_conversation_thread_seq"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "tool_calls"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "thread"`);
    await q.query(`DROP TABLE "threads"`);
    await q.query(`DROP INDEX "idx_conversations_actor_agent_updated"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "state"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "agent_id"`);
    await q.query(`DROP INDEX "idx_agents_actor_name"`);
    await q.query(`DROP TABLE "agents"`);
  }
}
