import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DatabaseService } from '../database/database.service.js';
import { isPostgres } from '../database/dialect.js';
import { describeError } from '../common/describe-error.js';

/** How long a message may wait for the full-text index when nothing searches: the batch a commit's pages are shared by. */
const INDEX_DELAY_MS = 1_000;
/** Rows indexed per transaction, so that a large backlog (an import) never holds the write lock for long. */
const BATCH_ROWS = 2_000;

/**
 * The messages SQLite's triggers noted in `messages_fts_pending` and the full-text index does
 * not hold yet (migration 1764980000000). Indexing them a batch at a time writes one FTS5
 * segment for the batch where each commit wrote one of its own. Searches call `catchUp()`
 * first, so they never miss a message written before them; a turn's recall reads, in its own
 * statement, whether any message it could be given waits (`RecallMatches.behind`), and only
 * then asks for a catch-up.
 * On PostgreSQL the index is kept by the row's own write, and nothing waits.
 */
@Injectable()
export class MessageIndexBacklog implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MessageIndexBacklog.name);
  private timer?: NodeJS.Timeout;
  /** The last catch-up asked for; each starts after the one before it ends. */
  private last: Promise<void> = Promise.resolve();
  /** A catch-up asked for and not started yet: callers meanwhile share it, as it will see their writes. */
  private queued: Promise<void> | null = null;
  private readonly sqlite: boolean;
  /** The application is closing: no catch-up starts any more. */
  private closing = false;

  constructor(
    private readonly db: DatabaseService,
    dataSource: DataSource,
  ) {
    this.sqlite = !isPostgres(dataSource);
  }

  onApplicationBootstrap(): void {
    if (!this.sqlite) return;
    this.timer = setInterval(() => void this.catchUp(), INDEX_DELAY_MS);
    this.timer.unref();
  }

  /**
   * Stops the timer and lets a catch-up under way (or asked for) end: the database closes at
   * application shutdown, after every module's onModuleDestroy, never under it.
   */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    await this.last;
  }

  /**
   * Indexes every message written before the call. Nothing waiting costs one read. It never
   * fails: when the database takes no writes (a full disk), searches answer from the index as
   * it is, and the rows wait for a later catch-up.
   */
  catchUp(): Promise<void> {
    if (!this.sqlite || this.closing) return Promise.resolve();
    if (this.queued) return this.queued;
    const next = this.last.then(() => {
      this.queued = null;
      return this.indexAll().catch((error: unknown) =>
        this.logger.warn(`Full-text indexing failed, retried later: ${describeError(error)}`),
      );
    });
    this.queued = next;
    this.last = next;
    return next;
  }

  private async indexAll(): Promise<void> {
    const waiting = await this.db.read(async (em) => {
      const [row] = (await em.query(`SELECT EXISTS (SELECT 1 FROM messages_fts_pending) AS waiting`)) as Array<{
        waiting: number;
      }>;
      return Number(row?.waiting ?? 0) === 1;
    });
    if (!waiting) return;
    while (await this.db.transaction((em) => indexBatch(em))) {
      // A full batch: there may be more.
    }
  }
}

/**
 * Indexes every noted message, with the owner token search asks for (`sqlite-message-search.ts`);
 * a batch adds its bound. The triggers keep every noted row one the index is for (text, not
 * streaming): no other check.
 */
export const INDEX_NOTED_SQL = `INSERT INTO messages_fts(rowid, content, owner)
  SELECT m.rowid, m.content, hex(m.actor) || '0'
    FROM messages_fts_pending p CROSS JOIN messages m ON m.rowid = p.message_rowid`;

/**
 * Indexes the first BATCH_ROWS noted rows in the notes' own key order (actor, rowid), in the
 * caller's transaction; whether the batch was full. Bounded by its last key, every statement
 * reads only the batch's rows, so a backlog of any size (an import) costs time linear in it.
 */
async function indexBatch(em: EntityManager): Promise<boolean> {
  const [batch] = (await em.query(
    `WITH b AS (SELECT actor, message_rowid FROM messages_fts_pending ORDER BY actor, message_rowid LIMIT ${BATCH_ROWS})
     SELECT (SELECT count(*) FROM b) AS n, actor, message_rowid AS last FROM b ORDER BY actor DESC, message_rowid DESC LIMIT 1`,
  )) as Array<{ n: number; actor: string; last: number }>;
  if (!batch) return false;
  const bound = [batch.actor, batch.last];
  await em.query(`${INDEX_NOTED_SQL} WHERE (p.actor, p.message_rowid) <= (?, ?)`, bound);
  await em.query(`DELETE FROM messages_fts_pending WHERE (actor, message_rowid) <= (?, ?)`, bound);
  return Number(batch.n) === BATCH_ROWS;
}
