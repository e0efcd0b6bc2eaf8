import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The child tables of a conversation carry its actor, as on PostgreSQL (1764750000000-actor-keys
 * there, where every key includes it, ready to distribute by actor): the same entities serve both
 * databases. SQLite keeps its keys, since one file is never distributed; the column is added
 * with an empty default (SQLite adds a NOT NULL column only with one) and filled from the
 * conversations, so existing rows keep their data.
 */
export class ActorColumns1764750000000 implements MigrationInterface {
  name = 'ActorColumns1764750000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['messages', 'conversation_tags', 'summaries', 'threads']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "actor" varchar(200) NOT NULL DEFAULT ('')`);
      await q.query(`UPDATE "${table}" SET "actor" = (SELECT c."actor" FROM "conversations" c WHERE c."id" = "${table}"."conversation_id")`);
    }
    await q.query(`ALTER TABLE "response_records" ADD COLUMN "actor" varchar(200) NOT NULL DEFAULT ('')`);
    await q.query(`UPDATE "response_records" SET "actor" = (SELECT m."actor" FROM "messages" m WHERE m."id" = "response_records"."message_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['messages', 'conversation_tags', 'summaries', 'threads', 'response_records']) {
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "actor"`);
    }
  }
}
