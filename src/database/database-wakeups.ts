import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { isPostgres } from './dialect.js';
import { WakeSubscription, type Wake } from './wake-subscription.js';

/** Pauses between attempts to bring the PostgreSQL listener back, doubling up to the last. */
const RECONNECT_MS = [250, 500, 1_000, 2_000, 5_000, 10_000];

/**
 * Wake-ups for whoever waits on a row to change (followers of a reply), so they need not poll.
 *
 * On PostgreSQL the writer sends `NOTIFY <channel>, '<key>'` in the transaction that changes the
 * row (it is delivered on COMMIT, to every instance); each instance LISTENs on one dedicated
 * connection and fans the key out to its own subscribers. While that connection is down `live`
 * is false, and waiters fall back to polling; when it goes down or comes back, every waiter is
 * woken to read once, since a notification may have been missed.
 *
 * SQLite serves one process, so the writer wakes the subscribers itself once its commit is
 * durable (`committed`), handing them the committed text.
 */
@Injectable()
export class DatabaseWakeups implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseWakeups.name);
  private readonly subscribers = new Map<string, Set<WakeSubscription>>();
  /** Announcements that are not wake-ups: a payload starting with the prefix goes to its handler instead. */
  private readonly prefixes: { prefix: string; handle: (rest: string) => void }[] = [];
  private readonly postgres: boolean;
  /** The NOTIFY channel of this schema (instances of other schemas in the database are not woken). */
  readonly channel: string;
  private listener: pg.Client | null = null;
  private connected = false;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  private failures = 0;

  constructor(private readonly dataSource: DataSource) {
    this.postgres = isPostgres(dataSource);
    const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
    this.channel = `chat_memory_wake_${schema}`.slice(0, 63);
  }

  /** Whether wake-ups are delivered now (SQLite: always; PostgreSQL: while the listener is connected). */
  get live(): boolean {
    return !this.postgres || this.connected;
  }

  /** How many waiters there are (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  subscribe(key: string): WakeSubscription {
    const subscription = new WakeSubscription((s) => {
      const set = this.subscribers.get(key);
      set?.delete(s);
      if (set?.size === 0) this.subscribers.delete(key);
    });
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(subscription);
    return subscription;
  }

  /**
   * A row's change is durable: wakes this process's subscribers (SQLite). On PostgreSQL the
   * NOTIFY sent in the transaction does it, on every instance, so nothing happens here.
   */
  committed(key: string, content?: string): void {
    if (!this.postgres) this.wake(key, content === undefined ? {} : { content });
  }

  /**
   * In `em`'s transaction: on PostgreSQL, NOTIFY every instance of `key` on commit; on SQLite
   * nothing (the writer calls `committed` after its commit instead).
   */
  async notifyIn(em: EntityManager, key: string): Promise<void> {
    if (this.postgres) await em.query('SELECT pg_notify($1, $2)', [this.channel, key]);
  }

  /**
   * PostgreSQL: payloads on this channel that start with `prefix` (which no wake-up key does)
   * are handed to `handle`, from every instance, this one included.
   */
  onPrefix(prefix: string, handle: (rest: string) => void): void {
    this.prefixes.push({ prefix, handle });
  }

  /** Whether a change must be announced through the database (NOTIFY) for other instances to see it. */
  get acrossInstances(): boolean {
    return this.postgres;
  }

  private wake(key: string, wake: Wake): void {
    const set = this.subscribers.get(key);
    if (set) for (const s of [...set]) s.deliver(wake);
  }

  private wakeAll(): void {
    for (const key of [...this.subscribers.keys()]) this.wake(key, {});
  }

  async onModuleInit(): Promise<void> {
    if (this.postgres) await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const listener = this.listener;
    this.listener = null;
    this.connected = false;
    await listener?.end().catch(() => undefined);
  }

  /** Opens the dedicated connection and LISTENs; on failure, tries again later (waiters poll meanwhile). */
  private async listen(): Promise<void> {
    const options = this.dataSource.options as { url?: string; schema?: string };
    const client = new pg.Client({
      connectionString: options.url,
      application_name: `chat-memory-wakeups:${options.schema ?? 'public'}`,
      connectionTimeoutMillis: 5_000,
    });
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      const announcement = this.prefixes.find((p) => n.payload!.startsWith(p.prefix));
      if (announcement) announcement.handle(n.payload.slice(announcement.prefix.length));
      else this.wake(n.payload, {});
    });
    const lost = (why: string) => {
      if (this.listener !== client) return;
      this.listener = null;
      this.connected = false;
      this.logger.warn(`The database listener stopped (${why}); followers poll until it is back`);
      this.wakeAll();
      void client.end().catch(() => undefined);
      this.reconnectLater();
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      lost((error as Error).message);
      return;
    }
    if (this.stopped || this.listener !== client) return void client.end().catch(() => undefined);
    this.connected = true;
    if (this.failures > 0) this.logger.log('The database listener is back; followers are woken by the database again');
    this.failures = 0;
    // Anything committed while nobody listened: let every waiter read once.
    this.wakeAll();
  }

  private reconnectLater(): void {
    if (this.stopped) return;
    const pause = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)];
    this.failures += 1;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(), pause);
    this.retry.unref();
  }
}
