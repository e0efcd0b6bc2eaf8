import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Conversations and their messages (SQLite). */
export class InitialSchema1764480000000 implements MigrationInterface {
  name = 'InitialSchema1764480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "conversations" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "title" varchar(200) NOT NULL,
        "last_seq" integer NOT NULL DEFAULT (0),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )
    `);
    await q.query(`CREATE INDEX "idx_conversations_actor_updated" ON "conversations" ("actor", "updated_at", "id")`);
    await q.query(`
      CREATE TABLE "messages" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "seq" integer NOT NULL,
        "role" varchar(16) NOT NULL,
        "content" text NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT ('complete'),
        "model" varchar(200),
        "prompt_tokens" integer,
        "completion_tokens" integer,
        "created_at" datetime NOT NULL,
        CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await q.query(`CREATE UNIQUE INDEX "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "uq_messages_conversation_seq"`);
    await q.query(`DROP TABLE "messages"`);
    await q.query(`DROP INDEX "idx_conversations_actor_updated"`);
    await q.query(`DROP TABLE "conversations"`);
  }
}
