import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Conversation aliases: a client's own names for its conversations (the AI SDK's chat ids), per actor (SQLite). */
export class ConversationAliases1764640000000 implements MigrationInterface {
  name = 'ConversationAliases1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "conversation_aliases" (
        "actor" varchar(200) NOT NULL,
        "alias" varchar(128) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "created_at" datetime NOT NULL,
        CONSTRAINT "FK_2898cfc28976dd969635ec9388f" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "alias")
      )
    `);
    await q.query(`CREATE INDEX "idx_conversation_aliases_conversation" ON "conversation_aliases" ("conversation_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_conversation_aliases_conversation"`);
    await q.query(`DROP TABLE "conversation_aliases"`);
  }
}
