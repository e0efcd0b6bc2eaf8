import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Replies that stream, can be cancelled or regenerated, and survive their generator's death (SQLite). */
export class ReplyLifecycle1764490000000 implements MigrationInterface {
  name = 'ReplyLifecycle1764490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" ADD COLUMN "versions" text`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "error_status" integer`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "error_message" text`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "lease_until" datetime`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "cancel_requested_at" datetime`);
    await q.query(
      `CREATE INDEX "idx_messages_streaming_lease" ON "messages" ("lease_until") WHERE status = 'streaming'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_messages_streaming_lease"`);
    for (const column of ['cancel_requested_at', 'lease_until', 'error_message', 'error_status', 'versions']) {
      await q.query(`ALTER TABLE "messages" DROP COLUMN "${column}"`);
    }
  }
}
