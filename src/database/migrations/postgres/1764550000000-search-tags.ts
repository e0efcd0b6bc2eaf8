import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Archive, pin and tags on conversations, and full-text search (PostgreSQL): GIN indexes on
 * the `simple` text-search configuration (no stemming, every language alike).
 */
export class PgSearchTags1764550000000 implements MigrationInterface {
  name = 'PgSearchTags1764550000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" ADD "archived" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "conversations" ADD "pinned" boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE "conversation_tags" (
        "conversation_id" character varying(36) NOT NULL,
        "tag" character varying(50) NOT NULL,
        CONSTRAINT "PK_a3c8059d03afcb62e88d4e1da28" PRIMARY KEY ("conversation_id", "tag")
      )
    `);
    await q.query(`CREATE INDEX "idx_conversation_tags_tag" ON "conversation_tags" ("tag", "conversation_id")`);
    await q.query(`
      ALTER TABLE "conversation_tags"
        ADD CONSTRAINT "FK_3c627a7d45d66262ae48c1584ae" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
        ON DELETE CASCADE ON UPDATE NO ACTION
    `);
    await q.query(`CREATE INDEX "idx_messages_fts" ON "messages" USING GIN (to_tsvector('simple', "content"))`);
    await q.query(
      `CREATE INDEX "idx_conversations_title_fts" ON "conversations" USING GIN (to_tsvector('simple', "title"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_conversations_title_fts"`);
    await q.query(`DROP INDEX "idx_messages_fts"`);
    await q.query(`DROP TABLE "conversation_tags"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "pinned"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "archived"`);
  }
}
