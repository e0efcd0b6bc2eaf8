import type { ClientRateLimitInfo, Store } from 'express-rate-limit';
import type { DatabaseService } from '../database/database.service.js';
import { sql } from '../database/sql.js';

/**
 * An express-rate-limit store kept in PostgreSQL (`rate_limit_counters`), so every instance
 * counts into the same row: with N instances an actor still gets the limit once.
 *
 * Each key has one row: its hit count and when its window started. A hit is one statement
 * (an upsert that either counts into the current window or starts a new one), atomic under
 * concurrent hits from any instance; time is the database's clock, so instances whose clocks
 * differ still agree on the window.
 */
export class PostgresRateStore implements Store {
  readonly localKeys = false;

  constructor(
    private readonly db: DatabaseService,
    readonly prefix: string,
    private readonly windowMs: number,
  ) {}

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { rows } = await this.db.statement((em) =>
      sql<{ hits: number; resets_at: number }>(
        em,
        `INSERT INTO "rate_limit_counters" AS c ("key", "window_start", "hits") VALUES (?, now(), 1)
         ON CONFLICT ("key") DO UPDATE SET
           "hits" = CASE WHEN c."window_start" > now() - ?::integer * interval '1 millisecond' THEN c."hits" + 1 ELSE 1 END,
           "window_start" = CASE WHEN c."window_start" > now() - ?::integer * interval '1 millisecond' THEN c."window_start" ELSE now() END
         RETURNING "hits", (extract(epoch FROM "window_start") * 1000)::float8 + ?::integer AS "resets_at"`,
        [this.prefix + key, this.windowMs, this.windowMs, this.windowMs],
      ),
    );
    return { totalHits: rows[0]!.hits, resetTime: new Date(rows[0]!.resets_at) };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.db.read((em) =>
      sql<{ hits: number; resets_at: number }>(
        em,
        `SELECT "hits", (extract(epoch FROM "window_start") * 1000)::float8 + ?::integer AS "resets_at" FROM "rate_limit_counters"
         WHERE "key" = ? AND "window_start" > now() - ?::integer * interval '1 millisecond'`,
        [this.windowMs, this.prefix + key, this.windowMs],
      ),
    );
    return rows[0] ? { totalHits: rows[0].hits, resetTime: new Date(rows[0].resets_at) } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.db.statement((em) =>
      sql(em, `UPDATE "rate_limit_counters" SET "hits" = "hits" - 1 WHERE "key" = ? AND "hits" > 0`, [
        this.prefix + key,
      ]),
    );
  }

  async resetKey(key: string): Promise<void> {
    await this.db.statement((em) => sql(em, `DELETE FROM "rate_limit_counters" WHERE "key" = ?`, [this.prefix + key]));
  }
}

/** Deletes the rows of windows that have ended (any instance may run it; it is idempotent). */
export async function purgeEndedWindows(db: DatabaseService, windowMs: number): Promise<number> {
  const { affected } = await db.statement((em) =>
    sql(em, `DELETE FROM "rate_limit_counters" WHERE "window_start" <= now() - ?::integer * interval '1 millisecond'`, [
      windowMs,
    ]),
  );
  return affected;
}
