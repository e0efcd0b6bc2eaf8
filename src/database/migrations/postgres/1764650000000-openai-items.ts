import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the OpenAI surface stores besides messages (PostgreSQL): a conversation's metadata, the
 * client function calls a reply asks for and the call a tool output answers, and each
 * response's request (response_records, deleted with its message).
 */
export class PgOpenAiItems1764650000000 implements MigrationInterface {
  name = 'PgOpenAiItems1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" ADD "metadata" text`);
    await q.query(`ALTER TABLE "messages" ADD "function_calls" text`);
    await q.query(`ALTER TABLE "messages" ADD "call_id" character varying(100)`);
    await q.query(`
      CREATE TABLE "response_records" (
        "message_id" character varying(36) NOT NULL,
        "request" text NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_285fbe35ecf7244b06b4d6222a1" PRIMARY KEY ("message_id")
      )
    `);
    await q.query(`
      ALTER TABLE "response_records"
        ADD CONSTRAINT "FK_285fbe35ecf7244b06b4d6222a1" FOREIGN KEY ("message_id") REFERENCES "messages"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "response_records"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "call_id"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "function_calls"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "metadata"`);
  }
}
