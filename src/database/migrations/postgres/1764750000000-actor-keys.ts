import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every per-actor table keyed by its actor, so that all of them can be distributed by `actor`
 * and co-located (Citus: `create_distributed_table(..., 'actor', colocate_with => ...)`) with
 * no further change: the child tables of a conversation (messages, messages_search,
 * conversation_tags, summaries, threads, response_records) get an `actor` column, copied from
 * their conversation; every primary key and unique constraint of a per-actor table includes
 * `actor` (last, so the indexes serve the same lookups as before); and every foreign key between
 * per-actor tables carries it on both sides. Existing rows are kept: the column is filled from
 * the conversations before it becomes NOT NULL. test/e2e/durability/citus-readiness.e2e-spec.ts
 * reads the catalog to hold the schema to this.
 */
export class PgActorKeys1764750000000 implements MigrationInterface {
  name = 'PgActorKeys1764750000000';

  async up(q: QueryRunner): Promise<void> {
    // Every foreign key goes first: keys they depend on change below. Re-created at the end.
    for (const { table, name } of await foreignKeys(q))
      await q.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${name}"`);

    for (const table of ['messages', 'conversation_tags', 'summaries', 'threads']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "actor" character varying(200)`);
      await q.query(
        `UPDATE "${table}" t SET "actor" = c."actor" FROM "conversations" c WHERE c."id" = t."conversation_id"`,
      );
    }
    for (const table of ['messages_search', 'response_records']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "actor" character varying(200)`);
      await q.query(`UPDATE "${table}" t SET "actor" = m."actor" FROM "messages" m WHERE m."id" = t."message_id"`);
    }
    // Rows whose parent is gone could only be leftovers of a cascade that did not run: none are expected.
    for (const table of [
      'messages',
      'conversation_tags',
      'summaries',
      'threads',
      'messages_search',
      'response_records',
    ]) {
      await q.query(`DELETE FROM "${table}" WHERE "actor" IS NULL`);
      await q.query(`ALTER TABLE "${table}" ALTER COLUMN "actor" SET NOT NULL`);
    }

    const primaryKeys: Record<string, string> = {
      conversations: '"id", "actor"',
      agents: '"id", "actor"',
      memories: '"id", "actor"',
      shares: '"id", "actor"',
      messages: '"id", "actor"',
      messages_search: '"message_id", "actor"',
      conversation_tags: '"conversation_id", "tag", "actor"',
      summaries: '"conversation_id", "thread", "actor"',
      threads: '"conversation_id", "name", "actor"',
      response_records: '"message_id", "actor"',
    };
    for (const [table, columns] of Object.entries(primaryKeys)) {
      const [pk] = (await q.query(
        `SELECT conname FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'p'`,
        [table],
      )) as { conname: string }[];
      await q.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${pk.conname}"`);
      await q.query(`ALTER TABLE "${table}" ADD CONSTRAINT "pk_${table}" PRIMARY KEY (${columns})`);
    }
    await q.query(`DROP INDEX "uq_messages_conversation_seq"`);
    await q.query(
      `CREATE UNIQUE INDEX "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq", "actor")`,
    );
    await q.query(`DROP INDEX "uq_shares_token_hash"`);
    await q.query(`CREATE UNIQUE INDEX "uq_shares_token_hash" ON "shares" ("token_hash", "actor")`);

    for (const [table, column] of [
      ['messages', 'conversation_id'],
      ['conversation_tags', 'conversation_id'],
      ['summaries', 'conversation_id'],
      ['threads', 'conversation_id'],
      ['shares', 'conversation_id'],
      ['conversation_aliases', 'conversation_id'],
      ['idempotency_keys', 'conversation_id'],
    ]) {
      await q.query(`
        ALTER TABLE "${table}"
          ADD CONSTRAINT "fk_${table}_conversation" FOREIGN KEY ("${column}", "actor") REFERENCES "conversations"("id", "actor")
          ON DELETE CASCADE
      `);
    }
    for (const table of ['messages_search', 'response_records']) {
      await q.query(`
        ALTER TABLE "${table}"
          ADD CONSTRAINT "fk_${table}_message" FOREIGN KEY ("message_id", "actor") REFERENCES "messages"("id", "actor")
          ON DELETE CASCADE
      `);
    }
    // No foreign key from conversations to agents any more: a conversation may be bound to an agent
    // another actor offers (so not on the same node), and deleting an agent detaches its
    // conversations in code (ConversationsService.deleteAgent, AgentsService.eraseFor).

    // The search row takes the message's own actor: no join to conversations on every insert.
    await q.query(`
      CREATE OR REPLACE FUNCTION "messages_search_sync"() RETURNS trigger
      LANGUAGE plpgsql
      SET search_path FROM CURRENT
      AS $$
      BEGIN
        INSERT INTO "messages_search" ("message_id", "actor", "conversation_id", "thread", "created_at", "seq", "search_vector")
          VALUES (NEW."id", NEW."actor", NEW."conversation_id", NEW."thread", NEW."created_at", NEW."seq", ${vectorSql('NEW', 'NEW')})
        ON CONFLICT ("message_id", "actor") DO UPDATE SET
          "conversation_id" = EXCLUDED."conversation_id",
          "thread" = EXCLUDED."thread",
          "created_at" = EXCLUDED."created_at",
          "seq" = EXCLUDED."seq",
          "search_vector" = EXCLUDED."search_vector";
        RETURN NULL;
      END
      $$
    `);
    // An actor is part of every key now and never changes (a foreign key refuses it): nothing to follow.
    await q.query(`DROP TRIGGER "conversations_search_actor_au" ON "conversations"`);
    await q.query(`DROP FUNCTION "messages_search_actor"()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, name } of await foreignKeys(q))
      await q.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${name}"`);
    await q.query(`
      CREATE OR REPLACE FUNCTION "messages_search_sync"() RETURNS trigger
      LANGUAGE plpgsql
      SET search_path FROM CURRENT
      AS $$
      BEGIN
        INSERT INTO "messages_search" ("message_id", "conversation_id", "thread", "created_at", "seq", "search_vector")
          SELECT NEW."id", NEW."conversation_id", NEW."thread", NEW."created_at", NEW."seq", ${vectorSql('NEW', 'c')}
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
      CREATE FUNCTION "messages_search_actor"() RETURNS trigger
      LANGUAGE plpgsql
      SET search_path FROM CURRENT
      AS $$
      BEGIN
        UPDATE "messages_search" s
          SET "search_vector" = ${vectorSql('m', 'NEW')}
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
    await q.query(`DROP INDEX "uq_shares_token_hash"`);
    await q.query(`CREATE UNIQUE INDEX "uq_shares_token_hash" ON "shares" ("token_hash")`);
    await q.query(`DROP INDEX "uq_messages_conversation_seq"`);
    await q.query(`CREATE UNIQUE INDEX "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq")`);
    const primaryKeys: Record<string, string> = {
      conversations: '"id"',
      agents: '"id"',
      memories: '"id"',
      shares: '"id"',
      messages: '"id"',
      messages_search: '"message_id"',
      conversation_tags: '"conversation_id", "tag"',
      summaries: '"conversation_id", "thread"',
      threads: '"conversation_id", "name"',
      response_records: '"message_id"',
    };
    for (const [table, columns] of Object.entries(primaryKeys)) {
      await q.query(`ALTER TABLE "${table}" DROP CONSTRAINT "pk_${table}"`);
      await q.query(`ALTER TABLE "${table}" ADD CONSTRAINT "pk_${table}" PRIMARY KEY (${columns})`);
    }
    for (const table of [
      'messages',
      'conversation_tags',
      'summaries',
      'threads',
      'messages_search',
      'response_records',
    ]) {
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "actor"`);
    }
    for (const table of [
      'messages',
      'conversation_tags',
      'summaries',
      'threads',
      'shares',
      'conversation_aliases',
      'idempotency_keys',
    ]) {
      await q.query(`
        ALTER TABLE "${table}"
          ADD CONSTRAINT "fk_${table}_conversation" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id")
          ON DELETE CASCADE
      `);
    }
    for (const table of ['messages_search', 'response_records']) {
      await q.query(`
        ALTER TABLE "${table}"
          ADD CONSTRAINT "fk_${table}_message" FOREIGN KEY ("message_id") REFERENCES "messages"("id")
          ON DELETE CASCADE
      `);
    }
    await q.query(`
      ALTER TABLE "conversations"
        ADD CONSTRAINT "fk_conversations_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id")
        ON DELETE SET NULL
    `);
  }
}

/** A message's search vector (1764610000000-messages-search.ts): its words, and one lexeme naming the actor of `owner`. */
const vectorSql = (message: string, owner: string) =>
  `to_tsvector('simple', ${message}."content") || array_to_tsvector(ARRAY[' a' || md5(${owner}."actor")])`;

/** The foreign keys of the tables in the current schema (search_path). */
async function foreignKeys(q: QueryRunner): Promise<{ table: string; name: string }[]> {
  return (await q.query(`
    SELECT c.relname AS "table", con.conname AS "name"
      FROM pg_constraint con
      JOIN pg_class c ON c.oid = con.conrelid
      WHERE con.contype = 'f' AND c.relnamespace = current_schema()::regnamespace
      ORDER BY 1, 2
  `)) as { table: string; name: string }[];
}
