import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The model a conversation's turns call, and the reasoning a reply's model streamed beside its answer (SQLite). */
export class ModelChoiceReasoning1764950000000 implements MigrationInterface {
  name = 'ModelChoiceReasoning1764950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "model" varchar(200)`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "reasoning" text`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "reasoning_ms" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" DROP COLUMN "reasoning_ms"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "reasoning"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "model"`);
  }
}
