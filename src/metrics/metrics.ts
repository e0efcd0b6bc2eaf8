/**
 * What the service counts, as the domain sees it: plain method calls, no metrics library.
 * The Prometheus implementation (prom-metrics.ts) is the one the app binds; tests and tools
 * that build services by hand may pass NO_METRICS.
 */
export abstract class Metrics {
  /** A turn ended with `outcome` (complete, truncated, failed, cancelled) after `seconds`. */
  abstract turnEnded(outcome: string, seconds: number): void;
  /** The first piece of reply text arrived `seconds` after the turn's model call started. */
  abstract firstToken(seconds: number): void;
  /** One call to the model (a tool round is a call of its own) ended `ok` or `error`. */
  abstract modelCall(result: 'ok' | 'error', seconds: number): void;
  abstract tokens(prompt: number, completion: number): void;
  /** Counts an open stream (or follower) until the returned function is called. */
  abstract streamOpened(): () => void;
  abstract followerStarted(): () => void;
  /** A follower read its reply from the database: woken by a save (`wake`) or on its fallback timer (`poll`). */
  abstract followerRead(cause: 'first' | 'wake' | 'poll'): void;
  /** A database unit of work (SQLite: one group COMMIT; PostgreSQL: one transaction) took `seconds`. */
  abstract committed(seconds: number): void;
  /** Reads how many units of work wait in the database queue, when a scrape asks. */
  abstract watchQueueDepth(read: () => number): void;
  /** Reads the lag of each read replica (seconds; null while it is down), when a scrape asks. */
  abstract watchReplicaLag(read: () => ReadonlyArray<{ replica: string; seconds: number | null }>): void;
  /** A read that could go to a replica ran on `target`. */
  abstract replicaRoutedRead(target: 'replica' | 'primary'): void;
  /** An error answer: HTTP status and the domain code (or `none`). */
  abstract errorAnswered(status: number, code: string): void;
}

class NoMetrics extends Metrics {
  turnEnded(): void {}
  firstToken(): void {}
  modelCall(): void {}
  tokens(): void {}
  streamOpened(): () => void {
    return () => undefined;
  }
  followerStarted(): () => void {
    return () => undefined;
  }
  followerRead(): void {}
  committed(): void {}
  watchQueueDepth(): void {}
  watchReplicaLag(): void {}
  replicaRoutedRead(): void {}
  errorAnswered(): void {}
}

export const NO_METRICS: Metrics = new NoMetrics();

/** Seconds since `start` (a performance.now() reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
