import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work done between two turns of the event loop, at most (plus the one step that crosses it). */
const SLICE_MS = 10;

/**
 * Lets other requests have the event loop once a slice of work went by without a turn: a reader
 * calls `give()` between steps, each of which is bounded, so no request waits longer than a slice
 * and a step, whatever the input. Counting time, not steps, keeps tiny steps cheap.
 */
export class EventLoopTurns {
  private last = performance.now();
  /** Turns given so far. */
  given = 0;

  async give(): Promise<void> {
    if (performance.now() - this.last < SLICE_MS) return;
    await nextTurn();
    this.given++;
    this.last = performance.now();
  }
}
