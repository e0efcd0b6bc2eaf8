import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A message's stored vector in a configuration, with its actor's lexeme (migration 1764610000000). */
const vectorSql = (config: string, row: string) =>
  `to_tsvector('${config}', ${row}."content") || array_to_tsvector(ARRAY[' a' || md5(${row}."actor")])`;

const syncFunction = (config: string) => `
  CREATE OR REPLACE FUNCTION "messages_search_sync"() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path FROM CURRENT
  AS $$
  BEGIN
    INSERT INTO "messages_search" ("message_id", "actor", "conversation_id", "thread", "created_at", "seq", "search_vector")
      VALUES (NEW."id", NEW."actor", NEW."conversation_id", NEW."thread", NEW."created_at", NEW."seq", ${vectorSql(config, 'NEW')})
    ON CONFLICT ("message_id", "actor") DO UPDATE SET
      "conversation_id" = EXCLUDED."conversation_id",
      "thread" = EXCLUDED."thread",
      "created_at" = EXCLUDED."created_at",
      "seq" = EXCLUDED."seq",
      "search_vector" = EXCLUDED."search_vector";
    RETURN NULL;
  END
  $$
`;

/**
 * Ranked search (PostgreSQL): message vectors and the title index use the `english`
 * configuration (Snowball stemming, stop words dropped) instead of `simple`. The vectors are
 * rewritten in place; the GIN index follows.
 */
export class PgRankedSearch1764810000000 implements MigrationInterface {
  name = 'PgRankedSearch1764810000000';

  async up(q: QueryRunner): Promise<void> {
    await convert(q, 'english');
  }

  async down(q: QueryRunner): Promise<void> {
    await convert(q, 'simple');
  }
}

async function convert(q: QueryRunner, to: string): Promise<void> {
  await q.query(syncFunction(to));
  await q.query(`
    UPDATE "messages_search" s
      SET "search_vector" = ${vectorSql(to, 'm')}
      FROM "messages" m
      WHERE m."id" = s."message_id" AND m."actor" = s."actor"
  `);
  await q.query(`DROP INDEX "idx_conversations_title_fts"`);
  await q.query(
    `CREATE INDEX "idx_conversations_title_fts" ON "conversations" USING GIN (to_tsvector('${to}', "title"))`,
  );
  await q.query(`ANALYZE "messages_search"`);
}
