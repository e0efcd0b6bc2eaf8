import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource, type DataSourceOptions, type EntityManager } from 'typeorm';
import type { ReadReplicaTargets } from '../config/database-url.js';
import { Metrics, NO_METRICS } from '../metrics/metrics.js';
import { DatabaseWakeups } from './database-wakeups.js';
import { RecentWrites } from './recent-writes.js';
import { parseLsn, ReplicaFreshness } from './replica-freshness.js';

/** How often the primary's position and each replica's replay are read. */
const REPLICA_POLL_MS = 100;
/** A replica that does not answer a poll within this is skipped until one succeeds. */
const POLL_TIMEOUT_MS = 1_000;
/** What other instances are told an actor wrote with, on the wake-up channel. */
const WRITE_PREFIX = 'w:';

export const READ_REPLICA_TARGETS = Symbol('READ_REPLICA_TARGETS');

interface Replica {
  readonly name: string;
  readonly url: string;
  source: DataSource | null;
  opening: Promise<DataSource> | null;
}

/**
 * The read replicas (DATABASE_READ_URL) and what routes a read to one: it polls the primary's
 * WAL position and each replica's replay (replica-freshness.ts), remembers when each actor
 * last wrote (recent-writes.ts; told by the HTTP and Telegram surfaces, and by other instances
 * over the wake-up channel), and picks, for an actor's read, a replica that holds that actor's
 * writes and lags at most DATABASE_READ_MAX_LAG_MS, or none (the read goes to the primary).
 *
 * A replica that is down at start, stops answering or fails a read is skipped until a poll
 * finds it well again; the service never waits on one.
 */
@Injectable()
export class ReadReplicas implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplicas.name);
  private readonly replicas: Replica[];
  private readonly freshness: ReplicaFreshness;
  private readonly writes: RecentWrites;
  private next = 0;
  private timer?: NodeJS.Timeout;
  /** The poll running now, and when it read the primary's position (a replica it finds caught up holds every write before that). */
  private inFlight: { readonly startedAt: number; readonly done: Promise<void> } | null = null;
  private stopped = false;
  private readonly warned = new Set<string>();

  constructor(
    private readonly primary: DataSource,
    @Inject(READ_REPLICA_TARGETS) targets: ReadReplicaTargets,
    private readonly wakeups: DatabaseWakeups,
    @Optional() metrics: Metrics = NO_METRICS,
  ) {
    this.replicas = targets.urls.map((url, i) => ({ name: `replica-${i + 1}`, url, source: null, opening: null }));
    this.freshness = new ReplicaFreshness(this.replicas.length, targets.maxLagMs);
    this.writes = new RecentWrites(targets.maxLagMs + 2 * REPLICA_POLL_MS);
    metrics.watchReplicaLag(() => this.replicas.map((r, i) => ({ replica: r.name, seconds: this.lagSeconds(i) })));
  }

  /** Whether any replica is configured (if not, every read goes to the primary and nothing is tracked). */
  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    this.wakeups.onPrefix(WRITE_PREFIX, (key) => this.writes.heard(key, performance.now()));
    void this.pollForever();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(
      this.replicas.map(async (r) => {
        const source = r.source ?? (await r.opening?.catch(() => null));
        r.source = null;
        if (source?.isInitialized) await source.destroy().catch(() => undefined);
      }),
    );
  }

  /**
   * A write of `actor`'s begins (a request that may write). Until the returned function's promise
   * settles, and then until the replicas hold what it wrote, the actor's reads go to the primary.
   * The function is idempotent: call it when the write is over, whatever the outcome; its
   * promise settles once the other instances have been told.
   */
  writeBegan(actor: string): () => Promise<void> {
    if (!this.enabled) return () => Promise.resolve();
    const key = RecentWrites.keyOf(actor);
    this.writes.began(key, performance.now());
    let ended: Promise<void> | null = null;
    return () => {
      ended ??= this.announce(key);
      return ended;
    };
  }

  /** Where `actor`'s read may run, if not on the primary. */
  managerFor(actor: string): { manager: EntityManager; replica: number } | null {
    if (!this.enabled) return null;
    return this.serving(this.writes.writtenAt(RecentWrites.keyOf(actor)));
  }

  /**
   * Where a read that must see every write committed before `asOf` (a performance.now()
   * reading) may run, if not on the primary: a replica known to hold them, else one a poll
   * started now finds caught up (followers woken by a commit read right after it; a replica on
   * the same network replays it within a millisecond or so), else none.
   */
  async managerAsOf(asOf: number): Promise<{ manager: EntityManager; replica: number } | null> {
    if (!this.enabled) return null;
    const known = this.serving(asOf);
    if (known) return known;
    // With every replica down, a poll would only wait out their timeouts: the primary answers now.
    if (!this.replicas.some((_, i) => this.freshness.view(i).healthy)) return null;
    await this.pollStartedAfter(asOf);
    return this.serving(asOf);
  }

  private serving(writtenAt: number): { manager: EntityManager; replica: number } | null {
    const now = performance.now();
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const index = (this.next + tried) % this.replicas.length;
      const source = this.replicas[index].source;
      if (source && this.freshness.serves(index, writtenAt, now)) {
        this.next = (index + 1) % this.replicas.length;
        return { manager: source.manager, replica: index };
      }
    }
    return null;
  }

  /** A read on replica `index` failed for a reason of the connection: skip it until a poll finds it well. */
  failed(index: number, error: unknown): void {
    this.freshness.replicaDown(index);
    this.warnOnce(
      this.replicas[index].name,
      `${this.replicas[index].name} failed a read (${(error as Error).message}); reads go to the primary until it answers again`,
    );
  }

  /** Lag of each replica now, in seconds (null: down), for /metrics and tests. */
  lagSeconds(index: number): number | null {
    const lag = this.freshness.lagMs(index, performance.now());
    return Number.isFinite(lag) ? lag / 1000 : null;
  }

  private async announce(key: string): Promise<void> {
    this.writes.ended(key, performance.now());
    // Other instances route this actor's reads to the primary too. Best effort: without the
    // listener, another instance may serve this actor a read up to DATABASE_READ_MAX_LAG_MS old.
    await this.primary
      .query('SELECT pg_notify($1, $2)', [this.wakeups.channel, WRITE_PREFIX + key])
      .catch(() => undefined);
  }

  private async pollForever(): Promise<void> {
    if (this.stopped) return;
    await this.pollStartedAfter(performance.now());
    if (!this.stopped) {
      this.timer = setTimeout(() => void this.pollForever(), REPLICA_POLL_MS);
      this.timer.unref();
    }
  }

  /** Waits for a poll that read the primary after `t`: the one running, if it started after `t`, else the next (one at a time). */
  private async pollStartedAfter(t: number): Promise<void> {
    for (;;) {
      const current = this.inFlight;
      if (current && current.startedAt > t) return current.done;
      if (current) {
        await current.done;
        continue;
      }
      const startedAt = performance.now();
      const done = this.poll(startedAt).finally(() => {
        if (this.inFlight?.done === done) this.inFlight = null;
      });
      this.inFlight = { startedAt, done };
      return done;
    }
  }

  private async poll(sentAt: number): Promise<void> {
    if (this.stopped) return;
    try {
      const [row] = (await this.primary.query('SELECT pg_current_wal_flush_lsn()::text AS lsn')) as { lsn: string }[];
      this.freshness.primaryAt(sentAt, parseLsn(row.lsn));
      await Promise.all(this.replicas.map((_, i) => this.pollReplica(i)));
    } catch {
      // The primary is not answering: the replicas' freshness cannot be known, and ages past the bound.
    }
  }

  private async pollReplica(index: number): Promise<void> {
    const replica = this.replicas[index];
    try {
      const source = await withTimeout(this.open(replica), POLL_TIMEOUT_MS);
      const [row] = (await withTimeout(
        source.query('SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn'),
        POLL_TIMEOUT_MS,
      )) as {
        standby: boolean;
        lsn: string | null;
      }[];
      if (!row.standby || row.lsn === null) {
        this.freshness.replicaDown(index);
        return this.warnOnce(
          replica.name,
          `${replica.name} is not a streaming standby (not in recovery); it is not read from`,
        );
      }
      this.freshness.replicaAt(index, parseLsn(row.lsn));
      if (this.warned.delete(replica.name)) this.logger.log(`${replica.name} answers again; it serves reads`);
    } catch (error) {
      this.freshness.replicaDown(index);
      this.warnOnce(
        replica.name,
        `${replica.name} does not answer (${(error as Error).message}); reads go to the primary until it does`,
      );
    }
  }

  private open(replica: Replica): Promise<DataSource> {
    if (replica.source?.isInitialized) return Promise.resolve(replica.source);
    replica.opening ??= new DataSource(replicaOptions(this.primary.options, replica.url))
      .initialize()
      .then((source) => {
        if (this.stopped) {
          void source.destroy();
          throw new Error('shutting down');
        }
        replica.source = source;
        return source;
      })
      .finally(() => {
        replica.opening = null;
      });
    return replica.opening;
  }

  private warnOnce(name: string, message: string): void {
    if (this.warned.has(name)) return;
    this.warned.add(name);
    this.logger.warn(message);
  }
}

/** The primary's options (entities, schema, driver settings) on the replica's URL, without migrations. */
function replicaOptions(primary: DataSourceOptions, url: string): DataSourceOptions {
  const options = primary as DataSourceOptions & { type: 'postgres'; extra?: Record<string, unknown> };
  // A standby is read-only: nothing may be created on it at connect (TypeORM's extensions check).
  return {
    ...options,
    url,
    migrationsRun: false,
    migrations: [],
    installExtensions: false,
    extra: { ...options.extra, connectionTimeoutMillis: POLL_TIMEOUT_MS, application_name: 'chat-memory-read' },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
