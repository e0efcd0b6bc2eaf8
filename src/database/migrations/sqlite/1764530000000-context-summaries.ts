import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Token counts per message, a per-agent context budget, and running summaries (SQLite). */
export class ContextSummaries1764530000000 implements MigrationInterface {
  name = 'ContextSummaries1764530000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" ADD COLUMN "tokens" integer`);
    await q.query(`ALTER TABLE "agents" ADD COLUMN "context_token_budget" integer`);
    await q.query(`
      CREATE TABLE "summaries" (
        "conversation_id" varchar(36) NOT NULL,
        "thread" varchar(64) NOT NULL,
        "content" text NOT NULL,
        "covers_seq" integer NOT NULL,
        "tokens" integer NOT NULL,
        "model" varchar(200) NOT NULL,
        "prompt_tokens" integer NOT NULL DEFAULT (0),
        "completion_tokens" integer NOT NULL DEFAULT (0),
        "updated_at" datetime NOT NULL,
        CONSTRAINT "FK_75b9062fb4c57afa15dc058fc3a" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "thread")
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "summaries"`);
    await q.query(`ALTER TABLE "agents" DROP COLUMN "context_token_budget"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "tokens"`);
  }
}
