import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search for common words (PostgreSQL). The GIN expression index on `messages.content` found
 * every actor's matches before the actor filter, and ranking re-tokenized each candidate.
 * `messages_search` holds one row per message: its text search vector plus one lexeme naming
 * the conversation's actor (`ACTOR_LEXEME_SQL` below, which no parsed word can equal, since it starts
 * with a space), so the index finds only the caller's matches, and `ts_rank` reads the stored
 * vector. Its `(created_at, seq)` index lets a common word be found by walking the newest rows
 * and stopping at the candidates wanted; a hit's conversation, thread and seq are copied so the
 * walk reads no other table. Kept by triggers; TypeORM knows nothing of it.
 */
export class PgMessagesSearch1764610000000 implements MigrationInterface {
  name = 'PgMessagesSearch1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "messages_search" (
        "message_id" character varying(36) PRIMARY KEY REFERENCES "messages"("id") ON DELETE CASCADE,
        "conversation_id" character varying(36) NOT NULL,
        "thread" character varying(64) NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        "seq" integer NOT NULL,
        "search_vector" tsvector NOT NULL
      )
    `);
    await q.query(`
      INSERT INTO "messages_search"
        SELECT m."id", m."conversation_id", m."thread", m."created_at", m."seq", ${VECTOR_SQL('m', 'c')}
        FROM "messages" m
        JOIN "conversations" c ON c."id" = m."conversation_id"
    `);
    await q.query(`CREATE INDEX "idx_messages_search_vector" ON "messages_search" USING GIN ("search_vector")`);
    await q.query(`CREATE INDEX "idx_messages_search_created_seq" ON "messages_search" ("created_at", "seq")`);
    await q.query(`DROP INDEX "idx_messages_fts"`);
    // `SET search_path FROM CURRENT`: the functions find this schema's tables whoever calls them.
    await q.query(`
      CREATE FUNCTION "messages_search_sync"() RETURNS trigger
      LANGUAGE plpgsql
      SET search_path FROM CURRENT
      AS $$
      BEGIN
        INSERT INTO "messages_search"
          SELECT NEW."id", NEW."conversation_id", NEW."thread", NEW."created_at", NEW."seq", ${VECTOR_SQL('NEW', 'c')}
          FROM "conversations" c
          WHERE c."id" = NEW."conversation_id"
        ON CONFLICT ("message_id") DO UPDATE SET
          "conversation_id" = EXCLUDED."conversation_id",
          "thread" = EXCLUDED."thread",
          "created_at" = EXCLUDED."created_at",
          "seq" = EXCLUDED."seq",
          "search_vector" = EXCLUDED."search_vector";
        RETURN NULL;
      END
      $$
    `);
    await q.query(`
      CREATE TRIGGER "messages_search_ai"
        AFTER INSERT OR UPDATE OF "content", "conversation_id", "thread", "seq", "created_at" ON "messages"
        FOR EACH ROW
        EXECUTE FUNCTION "messages_search_sync"()
    `);
    // Actors do not change today; if one ever does, its messages follow.
    await q.query(`
      CREATE FUNCTION "messages_search_actor"() RETURNS trigger
      LANGUAGE plpgsql
      SET search_path FROM CURRENT
      AS $$
      BEGIN
        UPDATE "messages_search" s
          SET "search_vector" = ${VECTOR_SQL('m', 'NEW')}
          FROM "messages" m
          WHERE m."conversation_id" = NEW."id" AND s."message_id" = m."id";
        RETURN NULL;
      END
      $$
    `);
    await q.query(`
      CREATE TRIGGER "conversations_search_actor_au"
        AFTER UPDATE OF "actor" ON "conversations"
        FOR EACH ROW WHEN (OLD."actor" IS DISTINCT FROM NEW."actor")
        EXECUTE FUNCTION "messages_search_actor"()
    `);
    await q.query(`ANALYZE "messages_search"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "conversations_search_actor_au" ON "conversations"`);
    await q.query(`DROP FUNCTION "messages_search_actor"()`);
    await q.query(`DROP TRIGGER "messages_search_ai" ON "messages"`);
    await q.query(`DROP FUNCTION "messages_search_sync"()`);
    await q.query(`CREATE INDEX "idx_messages_fts" ON "messages" USING GIN (to_tsvector('simple', "content"))`);
    await q.query(`DROP TABLE "messages_search"`);
  }
}

/**
 * The lexeme that stands for an actor in `messages_search.search_vector`, as SQL over `actor`
 * (ConversationSearchRepository asks for the same one).
 */
const ACTOR_LEXEME_SQL = (actor: string) => `' a' || md5(${actor})`;

/** A message's stored vector: its words (the `simple` configuration) and its actor's lexeme. */
const VECTOR_SQL = (message: string, conversation: string) => {
  const lexeme = ACTOR_LEXEME_SQL(`${conversation}."actor"`);
  return `to_tsvector('simple', ${message}."content") || array_to_tsvector(ARRAY[${lexeme}])`;
};
