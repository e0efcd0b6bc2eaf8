import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deleting a conversation forgets the idempotency keys (and stored answers) of its turns (PostgreSQL). */
export class PgIdempotencyConversationFk1764540000000 implements MigrationInterface {
  name = 'PgIdempotencyConversationFk1764540000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM "idempotency_keys"
        WHERE "conversation_id" IS NOT NULL AND "conversation_id" NOT IN (SELECT "id" FROM "conversations")
    `);
    await q.query(`
      ALTER TABLE "idempotency_keys"
        ADD CONSTRAINT "FK_ec2787a74e5156c8ce6cb25759c" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" DROP CONSTRAINT "FK_ec2787a74e5156c8ce6cb25759c"`);
  }
}
