import { type FileHandle, open } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import { StorageUnavailableError } from '../common/storage.errors.js';

/** Flushes the WAL file to disk (fdatasync), on libuv's thread pool rather than the event loop. */
interface WalFlush {
  (): Promise<void>;
  /** Lets go of the file. */
  close?(): Promise<void>;
}

export function flushFile(path: string): WalFlush {
  // Kept open: SQLite keeps its WAL file (truncating it, never replacing it) while its
  // connection is open, and the queue closes this before that connection closes.
  let handle: Promise<FileHandle> | null = null;
  const letGo = async () => {
    const open = handle;
    handle = null;
    await open?.then((h) => h.close()).catch(() => undefined);
  };
  const flush: WalFlush = async () => {
    handle ??= open(path, 'r');
    try {
      await (await handle).datasync();
    } catch (error) {
      await letGo();
      throw error;
    }
  };
  flush.close = letGo;
  return flush;
}

/** Flushes of the WAL file under way at once, at most (each holds a thread of libuv's pool of four). */
const MAX_FLUSHES = 2;

interface Waiter {
  readonly commit: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Durability of COMMITs written with `synchronous = NORMAL` in WAL mode.
 *
 * With NORMAL, SQLite's COMMIT writes the transaction's frames to the WAL without the fsync that
 * `FULL` adds, so it is visible at once and survives a crash of the process, but not yet a power
 * cut. This class adds that fsync back, off the event loop: every COMMIT is counted, and a
 * caller is answered only once a flush of the WAL file that started after its COMMIT has
 * finished, which is what FULL waits for. One flush covers every COMMIT written before it
 * starts, and while it runs the connection goes on with the next transactions (a COMMIT made
 * meanwhile starts a second flush, or waits for the next one). So the event loop never blocks on
 * the disk, and a slow fsync is shared by all the turns that committed meanwhile.
 *
 * A failed flush leaves the WAL's state on disk unknown: frames written before it may be lost
 * even if a later flush succeeds (Linux forgets the failed pages), and recovery stops at the
 * first missing frame, which would take later transactions with it. So after one failure no
 * COMMIT is ever reported durable again by this process; restarting it recovers from the WAL
 * on disk, as PostgreSQL does after a failed fsync.
 */
export class WalDurability {
  private written = 0;
  private durable = 0;
  /** The newest COMMIT a flush under way covers. */
  private covered = 0;
  private failure: Error | null = null;
  private readonly waiters: Waiter[] = [];
  private readonly flights = new Set<Promise<void>>();

  constructor(private readonly flush: WalFlush) {}

  /** Counts a COMMIT just written; settles once it is on disk. */
  committed(): Promise<void> {
    this.written++;
    return this.waitFor(this.written);
  }

  /**
   * Settles once every COMMIT written so far is on disk, or null when they all are: a read
   * answered after this never shows a caller what a power cut could still take back.
   */
  barrier(): Promise<void> | null {
    if (this.failure) return Promise.reject(this.failure);
    return this.durable >= this.written ? null : this.waitFor(this.written);
  }

  /** Whether a flush failed (the database takes no more writes until a restart). */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Waits for the flushes under way, then lets go of the file (before the connection closes). */
  async close(): Promise<void> {
    while (this.flights.size > 0) await Promise.allSettled([...this.flights]);
    await this.flush.close?.();
  }

  private waitFor(commit: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ commit, resolve, reject });
      this.start();
    });
  }

  /**
   * Starts a flush for the COMMITs no flush under way covers, unless MAX_FLUSHES already run:
   * then the first to end starts it. Waiting for a flush begun before one's COMMIT would cost up
   * to two flushes; letting two run side by side keeps it near one.
   */
  private start(): void {
    // Waiters are in COMMIT order: the last one waits for the newest.
    const newest = this.waiters.at(-1)?.commit ?? 0;
    if (this.failure || newest <= this.covered || this.flights.size >= MAX_FLUSHES) return;
    const upTo = this.written;
    this.covered = upTo;
    const flight: Promise<void> = this.flush().then(
      () => {
        this.flights.delete(flight);
        // fdatasync makes durable everything written before it began, whichever flush ends first.
        this.durable = Math.max(this.durable, upTo);
        this.settle(
          (waiter) => waiter.commit <= this.durable,
          (waiter) => waiter.resolve(),
        );
        this.start();
      },
      (error: unknown) => {
        this.flights.delete(flight);
        this.failure ??= new StorageUnavailableError(
          `The database could not flush its log to disk: ${String((error as Error)?.message ?? error)}`,
        );
        this.settle(
          () => true,
          (waiter) => waiter.reject(this.failure),
        );
      },
    );
    this.flights.add(flight);
  }

  private settle(which: (waiter: Waiter) => boolean, action: (waiter: Waiter) => void): void {
    const done = this.waiters.filter(which);
    this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((w) => !which(w)));
    for (const waiter of done) action(waiter);
  }
}

/** The better-sqlite3 connection under TypeORM. */
interface RawSqlite {
  readonly name: string;
  readonly memory: boolean;
  pragma(source: string, options?: { simple: boolean }): unknown;
}

/**
 * Switches the connection of a SQLite file in WAL mode to `synchronous = NORMAL` and returns
 * what makes its COMMITs durable again; undefined (and `FULL` kept) for any other database.
 * Called once the migrations ran (they commit durably under FULL), before any other write.
 */
export function deferWalFlushes(dataSource: DataSource): WalDurability | undefined {
  const raw = (dataSource.driver as unknown as { databaseConnection?: RawSqlite }).databaseConnection;
  if (!raw || raw.memory || !raw.name) return undefined;
  if (String(raw.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return undefined;
  raw.pragma('synchronous = NORMAL');
  return new WalDurability(flushFile(`${raw.name}-wal`));
}
