import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The OAuth server of /mcp: registered clients, authorization requests with their codes, and tokens (hashes only) (PostgreSQL). */
export class PgOAuth1764910000000 implements MigrationInterface {
  name = 'PgOAuth1764910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "oauth_clients" (
        "id" character varying(36) NOT NULL,
        "metadata" text NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        CONSTRAINT "pk_oauth_clients" PRIMARY KEY ("id")
      )
    `);
    await q.query(`
      CREATE TABLE "oauth_grants" (
        "id" character varying(36) NOT NULL,
        "client_id" character varying(36) NOT NULL,
        "redirect_uri" text NOT NULL,
        "code_challenge" character varying(128) NOT NULL,
        "scopes" character varying(200) NOT NULL,
        "state" text,
        "resource" text,
        "actor" character varying(200),
        "code_hash" character varying(64),
        "created_at" TIMESTAMP NOT NULL,
        "expires_at" TIMESTAMP NOT NULL,
        "used_at" TIMESTAMP,
        CONSTRAINT "pk_oauth_grants" PRIMARY KEY ("id")
      )
    `);
    await q.query(`CREATE UNIQUE INDEX "uq_oauth_grants_code_hash" ON "oauth_grants" ("code_hash")`);
    await q.query(`
      CREATE TABLE "oauth_tokens" (
        "id" character varying(36) NOT NULL,
        "actor" character varying(200) NOT NULL,
        "client_id" character varying(36) NOT NULL,
        "access_hash" character varying(64) NOT NULL,
        "refresh_hash" character varying(64) NOT NULL,
        "scopes" character varying(200) NOT NULL,
        "access_expires_at" TIMESTAMP NOT NULL,
        "refresh_expires_at" TIMESTAMP NOT NULL,
        "created_at" TIMESTAMP NOT NULL,
        "revoked_at" TIMESTAMP,
        CONSTRAINT "pk_oauth_tokens" PRIMARY KEY ("id")
      )
    `);
    await q.query(`CREATE UNIQUE INDEX "uq_oauth_tokens_access_hash" ON "oauth_tokens" ("access_hash")`);
    await q.query(`CREATE UNIQUE INDEX "uq_oauth_tokens_refresh_hash" ON "oauth_tokens" ("refresh_hash")`);
    await q.query(`CREATE INDEX "idx_oauth_tokens_actor" ON "oauth_tokens" ("actor", "client_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "oauth_tokens"`);
    await q.query(`DROP TABLE "oauth_grants"`);
    await q.query(`DROP TABLE "oauth_clients"`);
  }
}
