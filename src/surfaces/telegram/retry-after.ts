import type { Transformer } from 'grammy';
import { sleep as realSleep } from '../../common/sleep.js';

interface RetryAfterOptions {
  /** Retries of one call after a 429, at most. */
  readonly maxRetries: number;
  /** A longer wait than this is not sat out: the 429 is returned to the caller. */
  readonly maxDelaySeconds: number;
  /** How to wait (tests pass a fake clock). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const DEFAULTS: RetryAfterOptions = { maxRetries: 3, maxDelaySeconds: 300 };

/**
 * A Bot API transformer that honours flood control: when Telegram answers 429 with
 * `retry_after`, the same call is made again after that many seconds. Every call of the bot
 * goes through it, so a reply is delayed rather than lost when the bot sends too fast.
 */
export function honourRetryAfter(options: Partial<RetryAfterOptions> = {}): Transformer {
  const { maxRetries, maxDelaySeconds, sleep = realSleep } = { ...DEFAULTS, ...options };
  return async (prev, method, payload, signal) => {
    for (let retry = 0; ; retry++) {
      const result = await prev(method, payload, signal);
      const seconds = result.ok ? undefined : result.parameters?.retry_after;
      if (seconds === undefined || retry >= maxRetries || seconds > maxDelaySeconds || signal?.aborted) return result;
      // The shim's signal type differs from Node's; at run time it is a standard AbortSignal.
      await sleep(seconds * 1000, signal as AbortSignal | undefined);
    }
  };
}
