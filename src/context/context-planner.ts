import type { PromptMessage } from '../llm/llm.port.js';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REQUEST } from './token-counter.js';

/** A stored message that may be replayed, with its content's token count. */
export interface HistoryItem {
  readonly seq: number;
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly tokens: number;
}

export interface PlanInput {
  readonly budget: number;
  /** At most this many history messages, whatever the budget. */
  readonly window: number;
  /** Instructions in order (agent, operator, thread, state); each with its token count. */
  readonly system: ReadonlyArray<{ readonly content: string; readonly tokens: number }>;
  readonly summary: { readonly content: string; readonly tokens: number; readonly coversSeq: number } | null;
  /** The most recent replayable messages, oldest first (already at most `window`). */
  readonly history: readonly HistoryItem[];
  /** The new user message; null to preview what the next turn would send around it. */
  readonly newMessage: { readonly content: string; readonly tokens: number } | null;
}

export type PartKind = 'system' | 'summary' | 'history' | 'message';

export interface PlannedContext {
  readonly messages: PromptMessage[];
  readonly parts: ReadonlyArray<{ readonly kind: PartKind; readonly role: string; readonly tokens: number; readonly seq?: number }>;
  readonly budget: number;
  readonly window: number;
  /** Everything the request costs, chat-format overhead included. */
  readonly totalTokens: number;
  /** Window messages left out because they did not fit the budget. */
  readonly omittedForBudget: number;
  readonly summaryIncluded: boolean;
  /** The oldest message replayed (null when none): everything before it is out of the window. */
  readonly oldestIncludedSeq: number | null;
}

/** The context cannot fit: the numbers say why. */
export class ContextOverBudgetError extends Error {
  readonly code = 'context_over_budget';
  constructor(
    message: string,
    readonly details: { readonly budget: number; readonly messageTokens: number; readonly systemTokens: number },
  ) {
    super(message);
  }
}

const cost = (contentTokens: number) => contentTokens + TOKENS_PER_MESSAGE;

/**
 * What the model sees on a turn, within the token budget and the message window: the system
 * prompts, the running summary when it fits, then as many of the most recent messages as fit
 * (newest kept first, never a gap in the middle), then the new message. The new message and
 * the system prompts are never cut; when they alone exceed the budget the turn is refused.
 */
export function planContext(input: PlanInput): PlannedContext {
  const systemTokens = input.system.reduce((sum, p) => sum + cost(p.tokens), 0);
  const messageTokens = input.newMessage ? cost(input.newMessage.tokens) : 0;
  if (input.newMessage && TOKENS_PER_REQUEST + messageTokens > input.budget) {
    throw new ContextOverBudgetError(
      `message is ${input.newMessage.tokens} tokens (${TOKENS_PER_REQUEST + messageTokens} with the chat format); the context token budget is ${input.budget}`,
      { budget: input.budget, messageTokens, systemTokens },
    );
  }
  let total = TOKENS_PER_REQUEST + systemTokens + messageTokens;
  if (total > input.budget) {
    throw new ContextOverBudgetError(
      `the system prompts (${systemTokens} tokens) and the message (${messageTokens}) exceed the context token budget of ${input.budget}`,
      { budget: input.budget, messageTokens, systemTokens },
    );
  }
  const summaryIncluded = input.summary !== null && total + cost(input.summary.tokens) <= input.budget;
  if (summaryIncluded) total += cost(input.summary!.tokens);

  const kept: HistoryItem[] = [];
  const window = input.window > 0 ? input.history.slice(-input.window) : [];
  for (let i = window.length - 1; i >= 0; i--) {
    const item = window[i];
    if (total + cost(item.tokens) > input.budget) break;
    total += cost(item.tokens);
    kept.unshift(item);
  }

  const messages: PromptMessage[] = [];
  const parts: Array<PlannedContext['parts'][number]> = [];
  for (const p of input.system) {
    messages.push({ role: 'system', content: p.content });
    parts.push({ kind: 'system', role: 'system', tokens: cost(p.tokens) });
  }
  if (summaryIncluded) {
    messages.push({ role: 'system', content: input.summary!.content });
    parts.push({ kind: 'summary', role: 'system', tokens: cost(input.summary!.tokens), seq: input.summary!.coversSeq });
  }
  for (const item of kept) {
    messages.push({ role: item.role, content: item.content });
    parts.push({ kind: 'history', role: item.role, tokens: cost(item.tokens), seq: item.seq });
  }
  if (input.newMessage) {
    messages.push({ role: 'user', content: input.newMessage.content });
    parts.push({ kind: 'message', role: 'user', tokens: messageTokens });
  }
  return {
    messages,
    parts,
    budget: input.budget,
    window: input.window,
    totalTokens: total,
    omittedForBudget: window.length - kept.length,
    summaryIncluded,
    oldestIncludedSeq: kept[0]?.seq ?? null,
  };
}
