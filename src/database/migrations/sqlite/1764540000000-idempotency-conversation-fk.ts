import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deleting a conversation forgets the idempotency keys (and stored answers) of its turns (SQLite). */
export class IdempotencyConversationFk1764540000000 implements MigrationInterface {
  name = 'IdempotencyConversationFk1764540000000';

  async up(q: QueryRunner): Promise<void> {
    // Stored answers of conversations deleted before this migration go too.
    await q.query(`
      DELETE FROM "idempotency_keys"
        WHERE "conversation_id" IS NOT NULL AND "conversation_id" NOT IN (SELECT "id" FROM "conversations")
    `);
    await q.query(`DROP INDEX "idx_idempotency_keys_created"`);
    await q.query(`
      CREATE TABLE "temporary_idempotency_keys" (
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
        CONSTRAINT "FK_ec2787a74e5156c8ce6cb25759c" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "key")
      )
    `);
    await q.query(`
      INSERT INTO "temporary_idempotency_keys"(
        "actor", "key", "request_hash", "token", "state", "conversation_id",
        "message_id", "response_status", "response_body", "lease_until", "created_at"
      )
        SELECT
          "actor", "key", "request_hash", "token", "state", "conversation_id",
          "message_id", "response_status", "response_body", "lease_until", "created_at"
        FROM "idempotency_keys"
    `);
    // Nothing references idempotency_keys, so dropping it cascades nowhere.
    await q.query(`DROP TABLE "idempotency_keys"`);
    await q.query(`ALTER TABLE "temporary_idempotency_keys" RENAME TO "idempotency_keys"`);
    await q.query(`CREATE INDEX "idx_idempotency_keys_created" ON "idempotency_keys" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_idempotency_keys_created"`);
    await q.query(`
      CREATE TABLE "temporary_idempotency_keys" (
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
    await q.query(`INSERT INTO "temporary_idempotency_keys" SELECT * FROM "idempotency_keys"`);
    await q.query(`DROP TABLE "idempotency_keys"`);
    await q.query(`ALTER TABLE "temporary_idempotency_keys" RENAME TO "idempotency_keys"`);
    await q.query(`CREATE INDEX "idx_idempotency_keys_created" ON "idempotency_keys" ("created_at")`);
  }
}
