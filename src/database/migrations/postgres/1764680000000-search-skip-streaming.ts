import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reply being generated saves its whole text every STREAM_FLUSH_MS, and each save rebuilt its
 * `messages_search` row (the text tokenized again). A `streaming` reply is now indexed once, when
 * it ends (its status is in the trigger's columns, so an end that changes the status alone
 * counts too). Rows of replies streaming now leave the search table until they end.
 */
export class PgSearchSkipStreaming1764680000000 implements MigrationInterface {
  name = 'PgSearchSkipStreaming1764680000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "messages_search_ai" ON "messages"`);
    await q.query(`
      CREATE TRIGGER "messages_search_ai"
        AFTER INSERT OR UPDATE OF "content", "status", "conversation_id", "thread", "seq", "created_at" ON "messages"
        FOR EACH ROW WHEN (NEW."status" <> 'streaming')
        EXECUTE FUNCTION "messages_search_sync"()
    `);
    await q.query(`
      DELETE FROM "messages_search" s
        USING "messages" m
        WHERE m."id" = s."message_id" AND m."status" = 'streaming'
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "messages_search_ai" ON "messages"`);
    await q.query(`
      CREATE TRIGGER "messages_search_ai"
        AFTER INSERT OR UPDATE OF "content", "conversation_id", "thread", "seq", "created_at" ON "messages"
        FOR EACH ROW
        EXECUTE FUNCTION "messages_search_sync"()
    `);
    await q.query(`UPDATE "messages" SET "content" = "content" WHERE "status" = 'streaming'`);
  }
}
