import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The messages of the actor's past each reply was given by recall (SQLite). */
export class RecalledMessageIds1764830000000 implements MigrationInterface {
  name = 'RecalledMessageIds1764830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" ADD COLUMN "recalled_message_ids" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" DROP COLUMN "recalled_message_ids"`);
  }
}
