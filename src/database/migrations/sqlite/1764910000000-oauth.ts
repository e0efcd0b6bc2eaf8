import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The OAuth server of /mcp: registered clients, authorization requests with their codes, and tokens (hashes only) (SQLite). */
export class OAuth1764910000000 implements MigrationInterface {
  name = 'OAuth1764910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "oauth_clients" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "metadata" text NOT NULL,
        "created_at" datetime NOT NULL
      )
    `);
    await q.query(`
      CREATE TABLE "oauth_grants" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "client_id" varchar(36) NOT NULL,
        "redirect_uri" text NOT NULL,
        "code_challenge" varchar(128) NOT NULL,
        "scopes" varchar(200) NOT NULL,
        "state" text,
        "resource" text,
        "actor" varchar(200),
        "code_hash" varchar(64),
        "created_at" datetime NOT NULL,
        "expires_at" datetime NOT NULL,
        "used_at" datetime
      )
    `);
    await q.query(`CREATE UNIQUE INDEX "uq_oauth_grants_code_hash" ON "oauth_grants" ("code_hash")`);
    await q.query(`
      CREATE TABLE "oauth_tokens" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "client_id" varchar(36) NOT NULL,
        "access_hash" varchar(64) NOT NULL,
        "refresh_hash" varchar(64) NOT NULL,
        "scopes" varchar(200) NOT NULL,
        "access_expires_at" datetime NOT NULL,
        "refresh_expires_at" datetime NOT NULL,
        "created_at" datetime NOT NULL,
        "revoked_at" datetime
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
