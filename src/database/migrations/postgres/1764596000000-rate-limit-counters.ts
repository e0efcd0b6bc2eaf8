import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit counters shared by every instance (PostgreSQL only: on SQLite, one process, they
 * stay in memory). No entity maps it: RateLimitsService owns it with constant SQL. UNLOGGED:
 * a hit writes no WAL, and a counter lost in a crash only gives a client a fresh minute.
 */
export class PgRateLimitCounters1764596000000 implements MigrationInterface {
  name = 'PgRateLimitCounters1764596000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE "rate_limit_counters" (
        "key" character varying(100) NOT NULL,
        "window_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "hits" integer NOT NULL,
        CONSTRAINT "pk_rate_limit_counters" PRIMARY KEY ("key")
      )
    `);
    await q.query(`CREATE INDEX "idx_rate_limit_counters_window_start" ON "rate_limit_counters" ("window_start")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rate_limit_counters"`);
  }
}
