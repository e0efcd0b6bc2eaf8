import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Metrics } from './metrics.js';

/** Model calls and turns take seconds to minutes. */
const SLOW_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Commits take a fsync or a round trip: milliseconds. */
const FAST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * The metrics in Prometheus form, in a registry of this app instance (not prom-client's global
 * one), so several apps in one process keep their own counts. Every update is an in-memory
 * add: nothing on the hot path waits on it.
 */
@Injectable()
export class PromMetrics extends Metrics {
  readonly registry = new Registry();
  private readonly turns = new Counter({
    name: 'chat_turns_total',
    help: 'Chat turns by how the reply ended',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly turnSeconds = new Histogram({
    name: 'chat_turn_duration_seconds',
    help: 'Time from the start of generation to the stored outcome',
    labelNames: ['outcome'],
    buckets: SLOW_BUCKETS,
    registers: [this.registry],
  });
  private readonly firstTokenSeconds = new Histogram({
    name: 'chat_time_to_first_token_seconds',
    help: 'Time from the model call to the first reply text',
    buckets: SLOW_BUCKETS,
    registers: [this.registry],
  });
  private readonly modelSeconds = new Histogram({
    name: 'llm_request_duration_seconds',
    help: 'One model call, by result',
    labelNames: ['result'],
    buckets: SLOW_BUCKETS,
    registers: [this.registry],
  });
  private readonly tokenCount = new Counter({
    name: 'llm_tokens_total',
    help: 'Tokens sent to (prompt) and received from (completion) the model',
    labelNames: ['direction'],
    registers: [this.registry],
  });
  private readonly streams = new Gauge({
    name: 'http_active_streams',
    help: 'Server-sent event streams open',
    registers: [this.registry],
  });
  private readonly followers = new Gauge({
    name: 'chat_active_followers',
    help: 'Clients following a reply from the database',
    registers: [this.registry],
  });
  private readonly followerReads = new Counter({
    name: 'chat_follower_reads_total',
    help: 'Reads of a followed reply from the database, by cause: first, wake (a save woke it), poll (fallback timer)',
    labelNames: ['cause'],
    registers: [this.registry],
  });
  private readonly commitSeconds = new Histogram({
    name: 'db_commit_duration_seconds',
    help: 'SQLite: one group commit; PostgreSQL: one transaction',
    buckets: FAST_BUCKETS,
    registers: [this.registry],
  });
  private readonly routedReads = new Counter({
    name: 'db_replica_routed_reads_total',
    help: 'Reads that may be served by a read replica, by where they ran: replica, or primary (none configured, lagging, down, or the actor wrote since)',
    labelNames: ['target'],
    registers: [this.registry],
  });
  private readonly errors = new Counter({
    name: 'http_errors_total',
    help: 'Error answers by status and error code',
    labelNames: ['status', 'code'],
    registers: [this.registry],
  });

  turnEnded(outcome: string, seconds: number): void {
    this.turns.inc({ outcome });
    this.turnSeconds.observe({ outcome }, seconds);
  }

  firstToken(seconds: number): void {
    this.firstTokenSeconds.observe(seconds);
  }

  modelCall(result: 'ok' | 'error', seconds: number): void {
    this.modelSeconds.observe({ result }, seconds);
  }

  tokens(prompt: number, completion: number): void {
    this.tokenCount.inc({ direction: 'prompt' }, prompt);
    this.tokenCount.inc({ direction: 'completion' }, completion);
  }

  streamOpened(): () => void {
    return this.held(this.streams);
  }

  followerStarted(): () => void {
    return this.held(this.followers);
  }

  followerRead(cause: 'first' | 'wake' | 'poll'): void {
    this.followerReads.inc({ cause });
  }

  committed(seconds: number): void {
    this.commitSeconds.observe(seconds);
  }

  watchQueueDepth(read: () => number): void {
    this.registry.removeSingleMetric('db_queue_depth');
    new Gauge({
      name: 'db_queue_depth',
      help: 'Units of work waiting for the SQLite connection (0 on PostgreSQL)',
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  watchReplicaLag(read: () => ReadonlyArray<{ replica: string; seconds: number | null }>): void {
    this.registry.removeSingleMetric('db_replica_lag_seconds');
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far each read replica may be behind the primary (an upper bound, to within the 100 ms poll); absent while the replica is down',
      labelNames: ['replica'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { replica, seconds } of read()) if (seconds !== null) this.set({ replica }, seconds);
      },
    });
  }

  replicaRoutedRead(target: 'replica' | 'primary'): void {
    this.routedReads.inc({ target });
  }

  errorAnswered(status: number, code: string): void {
    this.errors.inc({ status: String(status), code });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Counts one until the returned function runs; running it twice counts down once. */
  private held(gauge: Gauge): () => void {
    gauge.inc();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      gauge.dec();
    };
  }
}
