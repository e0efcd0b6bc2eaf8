import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys managed with `npm run keys` (PostgreSQL). */
export class PgApiKeys1764560000000 implements MigrationInterface {
  name = 'PgApiKeys1764560000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "api_keys" (
        "id" character varying(36) NOT NULL,
        "name" character varying(64) NOT NULL,
        "key_hash" character varying(64) NOT NULL,
        "label" character varying(200),
        "created_at" TIMESTAMP NOT NULL,
        "last_used_at" TIMESTAMP,
        "revoked_at" TIMESTAMP,
        CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id")
      )
    `);
    await q.query(`CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys" ("key_hash")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "uq_api_keys_key_hash"`);
    await q.query(`DROP TABLE "api_keys"`);
  }
}
