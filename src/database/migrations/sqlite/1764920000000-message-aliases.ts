import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Message aliases: a client's own ids for the messages of its conversations (the AI SDK's message ids), per actor (SQLite). */
export class MessageAliases1764920000000 implements MigrationInterface {
  name = 'MessageAliases1764920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "message_aliases" (
        "actor" varchar(200) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "alias" varchar(128) NOT NULL,
        "message_id" varchar(36) NOT NULL,
        "created_at" datetime NOT NULL,
        CONSTRAINT "fk_message_aliases_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "conversation_id", "alias")
      )
    `);
    await q.query(`CREATE INDEX "idx_message_aliases_message" ON "message_aliases" ("conversation_id", "message_id") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_message_aliases_message"`);
    await q.query(`DROP TABLE "message_aliases"`);
  }
}
