import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelCancelledError, ModelTimeoutError, ModelUnavailableError } from './llm.errors.js';

/**
 * The deadline and cancellation of one model call, and the mapping of whatever it threw.
 * One controller per call, fed by the caller's signal through a listener removed when the call
 * ends: Node 20's AbortSignal.any keeps every combined signal that has a listener alive until
 * a source aborts, a steady leak of one signal (and the SDK's listeners) per call.
 */
export class ModelCall {
  private readonly controller = new AbortController();
  private timedOut = false;
  private timer?: NodeJS.Timeout;
  private readonly baseUrl?: string;
  private readonly onCallerAbort = () => this.controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
    /** The model server's base URL as configured (LLM_BASE_URL), named in errors; credentials are stripped. */
    baseUrl?: string,
  ) {
    this.baseUrl = baseUrl === undefined ? undefined : displayUrl(baseUrl);
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.restart();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restart(): void {
    // Called for every streamed chunk: the same timer is moved, not a new one made each time.
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('deadline'));
    }, this.timeoutMs);
  }

  end(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  failure(error: unknown): Error {
    if (this.callerSignal?.aborted) return new ModelCancelledError();
    if (this.timedOut || error instanceof APIConnectionTimeoutError) return new ModelTimeoutError(this.timeoutMs);
    if (error instanceof ModelUnavailableError) return error;
    if (error instanceof APIUserAbortError) return new ModelCancelledError();
    if (error instanceof APIConnectionError) {
      const where = this.baseUrl ? ` at ${this.baseUrl}` : '';
      return new ModelUnavailableError(
        `Could not reach the model server${where} (${connectionCause(error)}); check LLM_BASE_URL and that the server is running`,
      );
    }
    if (error instanceof APIError && (error.status === 401 || error.status === 403)) {
      // Its text may quote part of our key: say only what the operator must fix.
      return new ModelUnavailableError(
        `The model server refused our credentials (${error.status}); check LLM_API_KEY`,
        error.status,
      );
    }
    if (error instanceof APIError && error.status === 429) {
      // Said as such (with the server's Retry-After), not as a model that is down: waiting is the fix.
      const retryAfter = retryAfterSeconds(error.headers);
      const when = retryAfter === undefined ? '; retry later' : `; retry in ${retryAfter} s`;
      return new ModelUnavailableError(
        `The model is rate-limited: its server answered 429 (too many requests)${when}`,
        429,
      );
    }
    if (error instanceof APIError && error.status !== undefined) {
      // The SDK prefixes its message with the status; say it once.
      const detail = brief(error.message.replace(new RegExp(`^${error.status}\\s*`), '')) || 'no details';
      if (error.status === 404 && this.baseUrl) {
        // The usual mistake: the address of the server, not of its OpenAI-compatible API.
        const hint = /\/v1\/?$/.test(this.baseUrl)
          ? ''
          : `; LLM_BASE_URL does not end in /v1: most OpenAI-compatible servers want ${this.baseUrl.replace(/\/$/, '')}/v1`;
        return new ModelUnavailableError(
          `The model server answered 404 at ${this.baseUrl.replace(/\/$/, '')}/chat/completions: ${detail}${hint}`,
          error.status,
        );
      }
      return new ModelUnavailableError(`The model server answered ${error.status}: ${detail}`, error.status);
    }
    // Malformed bodies, broken connections mid-response and the like arrive as plain errors.
    const reason = error instanceof Error ? error.message : String(error);
    return new ModelUnavailableError(`The model call failed: ${brief(reason)}`);
  }
}

/** Retry-After (seconds or an HTTP date) as whole seconds from now; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The system's word for why a connection failed (ECONNREFUSED, ENOTFOUND...), found down the chain of causes. */
function connectionCause(error: Error): string {
  // Not `instanceof`: fetch's errors may come from another realm (a test's VM context).
  let current = error as { code?: unknown; cause?: unknown; message?: unknown };
  let innermost = error.message;
  for (let depth = 0; depth < 5; depth++) {
    if (typeof current.code === 'string' && /^[A-Z_]+$/.test(current.code)) return current.code;
    if (typeof current.message === 'string' && current.message) innermost = current.message;
    if (typeof current.cause !== 'object' || current.cause === null) break;
    current = current.cause as typeof current;
  }
  return brief(innermost) || 'no details';
}

/** A URL fit to show: no user name, password or query (where keys sometimes go). */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(an unreadable LLM_BASE_URL)';
  }
}

/** Upstream error texts can be long (or echo a prompt): keep a short, single-line excerpt. */
function brief(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
