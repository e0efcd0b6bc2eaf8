import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The readiness check's write probe (PostgreSQL); it never holds a row between probes. */
export class PgStorageProbe1764580000000 implements MigrationInterface {
  name = 'PgStorageProbe1764580000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "storage_probe" ("id" integer NOT NULL PRIMARY KEY, "filler" bytea)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "storage_probe"`);
  }
}
