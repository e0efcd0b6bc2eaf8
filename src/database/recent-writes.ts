import { createHash } from 'node:crypto';

/**
 * When each actor last wrote, for routing their reads (replica-freshness.ts): an actor whose
 * write is in flight, or ended after what a replica is known to hold, reads from the primary.
 *
 * Keyed by a short hash of the actor, which is also what other instances are told (the actor
 * itself is not sent around); two actors sharing a hash only send each other to the primary
 * more often. An entry is dropped once it is older than any replica may lag, since a replica
 * that serves at all then holds that write.
 */
export class RecentWrites {
  private readonly entries = new Map<string, { inFlight: number; endedAt: number }>();
  private prunedAt = 0;

  constructor(private readonly keepMs: number) {}

  static keyOf(actor: string): string {
    return createHash('sha256').update(actor).digest('base64url').slice(0, 16);
  }

  /** A write of `key`'s began: until it ends, their reads go to the primary. */
  began(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (entry) entry.inFlight += 1;
    else this.entries.set(key, { inFlight: 1, endedAt: -Infinity });
    this.prune(now);
  }

  /** The write `began` announced ended (committed or not) at `now`. */
  ended(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    entry.endedAt = Math.max(entry.endedAt, now);
  }

  /** Another instance says `key` wrote; heard at `now`, which is after that write ended. */
  heard(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (entry) entry.endedAt = Math.max(entry.endedAt, now);
    else this.entries.set(key, { inFlight: 0, endedAt: now });
    this.prune(now);
  }

  /** When `key`'s last write ended: -Infinity if none is remembered, Infinity while one is in flight. */
  writtenAt(key: string): number {
    const entry = this.entries.get(key);
    if (!entry) return -Infinity;
    return entry.inFlight > 0 ? Infinity : entry.endedAt;
  }

  get size(): number {
    return this.entries.size;
  }

  /** At most once a second: a whole pass, over the actors that wrote within `keepMs`. */
  private prune(now: number): void {
    if (now - this.prunedAt < 1_000) return;
    this.prunedAt = now;
    const horizon = now - this.keepMs;
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0 && entry.endedAt < horizon) this.entries.delete(key);
    }
  }
}
