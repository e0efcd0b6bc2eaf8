import type { Message } from './message.entity.js';

/** The tokens a stored reply's model call reported. */
interface StoredUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/**
 * The usage a stored message records, as every surface reports it: null when the model reported
 * none (a question, a failed or cancelled reply), else both counts, a missing one as 0.
 */
export function storedUsage(message: Pick<Message, 'promptTokens' | 'completionTokens'>): StoredUsage | null {
  if (message.promptTokens === null && message.completionTokens === null) return null;
  return { promptTokens: message.promptTokens ?? 0, completionTokens: message.completionTokens ?? 0 };
}
