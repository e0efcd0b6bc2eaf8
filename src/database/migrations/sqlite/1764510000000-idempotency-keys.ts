import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key records (SQLite). */
export class IdempotencyKeys1764510000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "idempotency_keys" (
        "actor" varchar(200) NOT NULL,
        "key" varchar(255) NOT NULL,
        "request_hash" varchar(64) NOT NULL,
        "token" varchar(36) NOT NULL,
        "state" varchar(16) NOT NULL,
        "conversation_id" varchar(36),
        "message_id" varchar(36),
        "response_status" integer,
        "response_body" text,
        "lease_until" datetime NOT NULL,
        "created_at" datetime NOT NULL,
        PRIMARY KEY ("actor", "key")
      )
    `);
    await q.query(`CREATE INDEX "idx_idempotency_keys_created" ON "idempotency_keys" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_idempotency_keys_created"`);
    await q.query(`DROP TABLE "idempotency_keys"`);
  }
}
