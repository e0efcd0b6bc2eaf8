import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Share links: a snapshot of one branch of a conversation, found by the hash of its token (SQLite). */
export class Shares1764670000000 implements MigrationInterface {
  name = 'Shares1764670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "shares" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "token_hash" varchar(64) NOT NULL,
        "title" varchar(200) NOT NULL,
        "up_to_message_id" varchar(36) NOT NULL,
        "message_count" integer NOT NULL,
        "messages" text NOT NULL,
        "created_at" datetime NOT NULL,
        "expires_at" datetime,
        CONSTRAINT "FK_8adae437b3fa45e9191557e1029" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await q.query(`CREATE INDEX "idx_shares_actor" ON "shares" ("actor", "created_at")`);
    await q.query(`CREATE INDEX "idx_shares_conversation" ON "shares" ("conversation_id", "created_at")`);
    await q.query(`CREATE UNIQUE INDEX "uq_shares_token_hash" ON "shares" ("token_hash")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "uq_shares_token_hash"`);
    await q.query(`DROP INDEX "idx_shares_conversation"`);
    await q.query(`DROP INDEX "idx_shares_actor"`);
    await q.query(`DROP TABLE "shares"`);
  }
}
