/**
 * How fresh each read replica is, and which reads it may serve: the part of replica routing
 * that is arithmetic on times and WAL positions, kept apart from the connections so it can be
 * tested with a clock of its own. Times are `performance.now()` readings of this process.
 *
 * A replica is known to hold every write acknowledged before time T once it has replayed the
 * primary's WAL up to the flush position the primary reported to a query sent at T (with
 * `synchronous_commit` on, PostgreSQL's default, a commit is acknowledged only once flushed).
 * Each poll samples the primary's position, then asks each replica how far it replayed; a
 * replica's `heldSince` is the time of the newest sample it has reached. No clock of another
 * machine is read, and an idle primary does not look lagged: its position stops moving, and the
 * replica reaches it.
 *
 * An actor's read may go to a replica whose `heldSince` is after that actor's last write
 * ended (and while a write of theirs is in flight, none may), so a caller always reads their
 * own writes; other actors' writes may be up to `maxLagMs` behind.
 */

/** A PostgreSQL LSN (`16/B374D848`) as a number that orders like the position. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

interface Sample {
  readonly at: number;
  readonly lsn: bigint;
}

/** One replica as the polls last saw it. */
interface ReplicaView {
  /** It answered the last poll, as a standby in recovery. */
  readonly healthy: boolean;
  /** Every write acknowledged before this time is on it (-Infinity: none known yet). */
  readonly heldSince: number;
}

export class ReplicaFreshness {
  /** The primary's flush positions, oldest first, kept for `maxLagMs` (an older one could only make a replica too late anyway). */
  private samples: Sample[] = [];
  private readonly replicas: { healthy: boolean; heldSince: number }[];

  constructor(
    count: number,
    private readonly maxLagMs: number,
  ) {
    this.replicas = Array.from({ length: count }, () => ({ healthy: false, heldSince: -Infinity }));
  }

  /** The primary reported `lsn` to a query sent at `at`. */
  primaryAt(at: number, lsn: bigint): void {
    this.samples.push({ at, lsn });
    const horizon = at - this.maxLagMs;
    let drop = 0;
    while (drop < this.samples.length - 1 && this.samples[drop].at < horizon) drop++;
    if (drop > 0) this.samples = this.samples.slice(drop);
  }

  /** Replica `index` has replayed up to `replayed` (asked after the newest primary sample returned). */
  replicaAt(index: number, replayed: bigint): void {
    const replica = this.replicas[index];
    replica.healthy = true;
    for (let i = this.samples.length - 1; i >= 0; i--) {
      if (this.samples[i].lsn <= replayed) {
        replica.heldSince = Math.max(replica.heldSince, this.samples[i].at);
        return;
      }
    }
  }

  /** Replica `index` did not answer, failed a read, or is not a standby: it serves nothing until a poll finds it well. */
  replicaDown(index: number): void {
    this.replicas[index].healthy = false;
  }

  view(index: number): ReplicaView {
    return this.replicas[index];
  }

  /** How far behind replica `index` may be at `now`, in ms (Infinity: down or never caught up). */
  lagMs(index: number, now: number): number {
    const replica = this.replicas[index];
    return replica.healthy ? Math.max(0, now - replica.heldSince) : Infinity;
  }

  /**
   * Whether replica `index` may serve, at `now`, a read that must see every write that ended
   * before `writtenAt` (-Infinity: no such write; Infinity: a write is in flight).
   */
  serves(index: number, writtenAt: number, now: number): boolean {
    const replica = this.replicas[index];
    return replica.healthy && replica.heldSince > writtenAt && now - replica.heldSince <= this.maxLagMs;
  }
}
