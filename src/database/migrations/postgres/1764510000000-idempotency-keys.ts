import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key records (PostgreSQL). */
export class PgIdempotencyKeys1764510000000 implements MigrationInterface {
  name = 'PgIdempotencyKeys1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "idempotency_keys" (
        "actor" character varying(200) NOT NULL,
        "key" character varying(255) NOT NULL,
        "request_hash" character varying(64) NOT NULL,
        "token" character varying(36) NOT NULL,
        "state" character varying(16) NOT NULL,
        "conversation_id" character varying(36),
        "message_id" character varying(36),
        "response_status" integer,
        "response_body" text,
        "lease_until" TIMESTAMP NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_440561355c591f4d2619280678c" PRIMARY KEY ("actor", "key")
      )
    `);
    await q.query(`CREATE INDEX "idx_idempotency_keys_created" ON "idempotency_keys" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_idempotency_keys_created"`);
    await q.query(`DROP TABLE "idempotency_keys"`);
  }
}
