import { ModelCancelledError } from '../llm/llm.errors.js';
import type { Completion, CompletionRequest } from '../llm/llm.port.js';
import type { ModelOptions } from './model-conversation.js';

/**
 * `call`, or a ModelCancelledError once `signal` has been aborted for `graceMs` (MODEL_STOP_GRACE_MS):
 * the call is left to end on its own.
 */
export function giveUpAfterStop(call: Promise<Completion>, signal: AbortSignal, graceMs: number): Promise<Completion> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const givenUp = new Promise<never>((_, reject) => {
    onAbort = () => {
      timer = setTimeout(() => reject(new ModelCancelledError()), graceMs);
      timer.unref();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // The abandoned call may still reject later: that is no longer anyone's concern.
  call.catch(() => undefined);
  return Promise.race([call, givenUp]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort!);
  });
}

/** A turn's own sampling and output settings as a model request carries them (only those asked for). */
export function modelSettingsOf(
  options: ModelOptions | undefined,
): Pick<CompletionRequest, 'topP' | 'responseFormat' | 'parallelToolCalls'> {
  return {
    ...(options?.topP !== undefined ? { topP: options.topP } : {}),
    ...(options?.responseFormat ? { responseFormat: options.responseFormat } : {}),
    ...(options?.parallelToolCalls !== undefined ? { parallelToolCalls: options.parallelToolCalls } : {}),
  };
}

/** Usage of a reply's model calls (its tool rounds) added up; null while none reported any. */
export function addUsage(total: Completion['usage'], more: Completion['usage']): Completion['usage'] {
  if (!more) return total;
  if (!total) return more;
  return {
    promptTokens: total.promptTokens + more.promptTokens,
    completionTokens: total.completionTokens + more.completionTokens,
  };
}
