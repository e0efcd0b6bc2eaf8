import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys managed with `npm run keys` (SQLite). */
export class ApiKeys1764560000000 implements MigrationInterface {
  name = 'ApiKeys1764560000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "api_keys" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(64) NOT NULL,
        "key_hash" varchar(64) NOT NULL,
        "label" varchar(200),
        "created_at" datetime NOT NULL,
        "last_used_at" datetime,
        "revoked_at" datetime
      )
    `);
    await q.query(`CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys" ("key_hash")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "uq_api_keys_key_hash"`);
    await q.query(`DROP TABLE "api_keys"`);
  }
}
