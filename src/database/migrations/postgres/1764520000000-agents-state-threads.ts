import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Agents, conversation state, threads, and tool calls on replies (PostgreSQL). */
export class PgAgentsStateThreads1764520000000 implements MigrationInterface {
  name = 'PgAgentsStateThreads1764520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "agents" (
        "id" character varying(36) NOT NULL,
        "actor" character varying(200) NOT NULL,
        "name" character varying(100) NOT NULL,
        "emoji" character varying(32),
        "description" text,
        "system_prompt" text,
        "model" character varying(200),
        "temperature" real,
        "max_tokens" integer,
        "tools" text NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        "updated_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_9c653f28ae19c5884d5baf6a1d9" PRIMARY KEY ("id")
      )
    `);
    await q.query(`CREATE INDEX "idx_agents_actor_name" ON "agents" ("actor", "name")`);
    await q.query(`ALTER TABLE "conversations" ADD "agent_id" character varying(36)`);
    // Existing conversations start with an empty state; new rows always name theirs.
    await q.query(`ALTER TABLE "conversations" ADD "state" text NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE "conversations" ALTER COLUMN "state" DROP DEFAULT`);
    await q.query(
      `CREATE INDEX "idx_conversations_actor_agent_updated" ON "conversations" ("actor", "agent_id", "updated_at", "id")`,
    );
    await q.query(`
      ALTER TABLE "conversations"
        ADD CONSTRAINT "FK_9f32ead8384a1a92e073a7c006a" FOREIGN KEY ("agent_id") REFERENCES "agents"("id")
        ON DELETE SET NULL ON UPDATE NO ACTION
    `);
    await q.query(`
      CREATE TABLE "threads" (
        "conversation_id" character varying(36) NOT NULL,
        "name" character varying(64) NOT NULL,
        "system_prompt" text,
        "created_at" TIMESTAMP NOT NULL,
        "updated_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_f960a44c380919f3198ca4ea3e5" PRIMARY KEY ("conversation_id", "name")
      )
    `);
    await q.query(`
      ALTER TABLE "threads"
        ADD CONSTRAINT "FK_9f17d3cfcd65548566280a18283" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
    await q.query(`ALTER TABLE "messages" ADD "thread" character varying(64) NOT NULL DEFAULT 'main'`);
    await q.query(`ALTER TABLE "messages" ADD "tool_calls" text`);
    await q.query(
      `CREATE INDEX "idx_messages_conversation_thread_seq" ON "messages" ("conversation_id", "thread", "seq")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_messages_conversation_thread_seq"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "tool_calls"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "thread"`);
    await q.query(`DROP TABLE "threads"`);
    await q.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_9f32ead8384a1a92e073a7c006a"`);
    await q.query(`DROP INDEX "idx_conversations_actor_agent_updated"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "state"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "agent_id"`);
    await q.query(`DROP INDEX "idx_agents_actor_name"`);
    await q.query(`DROP TABLE "agents"`);
  }
}
