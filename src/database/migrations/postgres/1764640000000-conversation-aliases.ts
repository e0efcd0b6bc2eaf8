import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Conversation aliases: a client's own names for its conversations (the AI SDK's chat ids), per actor (PostgreSQL). */
export class PgConversationAliases1764640000000 implements MigrationInterface {
  name = 'PgConversationAliases1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "conversation_aliases" (
        "actor" character varying(200) NOT NULL,
        "alias" character varying(128) NOT NULL,
        "conversation_id" character varying(36) NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_1ab9514255cdfecc94c98447d04" PRIMARY KEY ("actor", "alias")
      )
    `);
    await q.query(`CREATE INDEX "idx_conversation_aliases_conversation" ON "conversation_aliases" ("conversation_id")`);
    await q.query(`
      ALTER TABLE "conversation_aliases"
        ADD CONSTRAINT "FK_2898cfc28976dd969635ec9388f" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "conversation_aliases"`);
  }
}
