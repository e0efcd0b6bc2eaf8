import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Conversations and messages with the reply lifecycle (PostgreSQL). Timestamps hold UTC. */
export class PgInitialSchema1764500000000 implements MigrationInterface {
  name = 'PgInitialSchema1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "conversations" (
        "id" character varying(36) NOT NULL,
        "actor" character varying(200) NOT NULL,
        "title" character varying(200) NOT NULL,
        "last_seq" integer NOT NULL DEFAULT '0',
        "created_at" TIMESTAMP NOT NULL,
        "updated_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_ee34f4f7ced4ec8681f26bf04ef" PRIMARY KEY ("id")
      )
    `);
    await q.query(`CREATE INDEX "idx_conversations_actor_updated" ON "conversations" ("actor", "updated_at", "id")`);
    await q.query(`
      CREATE TABLE "messages" (
        "id" character varying(36) NOT NULL,
        "conversation_id" character varying(36) NOT NULL,
        "seq" integer NOT NULL,
        "role" character varying(16) NOT NULL,
        "content" text NOT NULL,
        "status" character varying(16) NOT NULL DEFAULT 'complete',
        "model" character varying(200),
        "prompt_tokens" integer,
        "completion_tokens" integer,
        "versions" text,
        "error_status" integer,
        "error_message" text,
        "lease_until" TIMESTAMP,
        "cancel_requested_at" TIMESTAMP,
        "created_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_18325f38ae6de43878487eff986" PRIMARY KEY ("id")
      )
    `);
    await q.query(
      `CREATE INDEX "idx_messages_streaming_lease" ON "messages" ("lease_until") WHERE status = 'streaming'`,
    );
    await q.query(`CREATE UNIQUE INDEX "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq")`);
    await q.query(`
      ALTER TABLE "messages"
        ADD CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" DROP CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23"`);
    await q.query(`DROP INDEX "uq_messages_conversation_seq"`);
    await q.query(`DROP INDEX "idx_messages_streaming_lease"`);
    await q.query(`DROP TABLE "messages"`);
    await q.query(`DROP INDEX "idx_conversations_actor_updated"`);
    await q.query(`DROP TABLE "conversations"`);
  }
}
