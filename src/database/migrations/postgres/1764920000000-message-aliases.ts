import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Message aliases: a client's own ids for the messages of its conversations (the AI SDK's message ids), per actor (PostgreSQL). */
export class PgMessageAliases1764920000000 implements MigrationInterface {
  name = 'PgMessageAliases1764920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "message_aliases" (
        "actor" character varying(200) NOT NULL,
        "conversation_id" character varying(36) NOT NULL,
        "alias" character varying(128) NOT NULL,
        "message_id" character varying(36) NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        CONSTRAINT "PK_42f2858e9a3a59c133570ca1cfd" PRIMARY KEY ("actor", "conversation_id", "alias")
      )
    `);
    await q.query(`CREATE INDEX "idx_message_aliases_message" ON "message_aliases" ("conversation_id", "message_id")`);
    await q.query(`
      ALTER TABLE "message_aliases"
        ADD CONSTRAINT "fk_message_aliases_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations"("id", "actor")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "message_aliases"`);
  }
}
