import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every foreign key between per-actor tables may be checked at commit instead of per statement
 * (`DEFERRABLE INITIALLY IMMEDIATE`: unchanged unless a transaction asks). The actor is part of
 * each key (1764750000000-actor-keys), so giving an actor's rows to another actor (the first API
 * key adopting the single-user history, `npm run keys -- create --adopt`) updates a parent and
 * its children one table at a time, consistent only at the end; that transaction runs
 * `SET CONSTRAINTS ALL DEFERRED`. On SQLite the same transaction uses `PRAGMA defer_foreign_keys`.
 */
export class PgDeferrableActorKeys1764940000000 implements MigrationInterface {
  name = 'PgDeferrableActorKeys1764940000000';

  async up(q: QueryRunner): Promise<void> {
    for (const { table, name } of await foreignKeys(q))
      await q.query(`ALTER TABLE "${table}" ALTER CONSTRAINT "${name}" DEFERRABLE INITIALLY IMMEDIATE`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, name } of await foreignKeys(q))
      await q.query(`ALTER TABLE "${table}" ALTER CONSTRAINT "${name}" NOT DEFERRABLE`);
  }
}

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
