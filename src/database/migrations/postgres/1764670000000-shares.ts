import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Share links: a snapshot of one branch of a conversation, found by the hash of its token (PostgreSQL). */
export class PgShares1764670000000 implements MigrationInterface {
  name = 'PgShares1764670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "shares" (
        "id" character varying(36) NOT NULL,
        "actor" character varying(200) NOT NULL,
        "conversation_id" character varying(36) NOT NULL,
        "token_hash" character varying(64) NOT NULL,
        "title" character varying(200) NOT NULL,
        "up_to_message_id" character varying(36) NOT NULL,
        "message_count" integer NOT NULL,
        "messages" text NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        "expires_at" TIMESTAMP,
        CONSTRAINT "PK_b88473409066c43c2ccb1894a82" PRIMARY KEY ("id")
      )
    `);
    await q.query(`CREATE INDEX "idx_shares_actor" ON "shares" ("actor", "created_at")`);
    await q.query(`CREATE INDEX "idx_shares_conversation" ON "shares" ("conversation_id", "created_at")`);
    await q.query(`CREATE UNIQUE INDEX "uq_shares_token_hash" ON "shares" ("token_hash")`);
    await q.query(`
      ALTER TABLE "shares"
        ADD CONSTRAINT "FK_8adae437b3fa45e9191557e1029" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "shares"`);
  }
}
