import type { PromptMessage } from '../llm/llm.port.js';
import { DomainError } from '../common/domain-error.js';
import { memoryMessage, selectMemories, type MemoryOffer } from './memory-selection.js';
import { recallMessage, selectRecall, type RecallOffer } from './recall-selection.js';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REQUEST } from './token-counter.js';

/** A stored message that may be replayed, with its content's token count. */
export interface HistoryItem {
  readonly seq: number;
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly content: string;
  readonly tokens: number;
  /** On an assistant message: the client's functions it asked to be called (their outputs follow it). */
  readonly functionCalls?: ReadonlyArray<{
    readonly callId: string;
    readonly name: string;
    readonly arguments: string;
  }> | null;
  /** On a tool message: the call it answers. */
  readonly callId?: string | null;
}

export interface PlanInput {
  readonly budget: number;
  /** Where the budget comes from, named in the refusal so the reader knows what to raise. Default CONTEXT_TOKEN_BUDGET. */
  readonly budgetSource?: string;
  /** At most this many history messages, whatever the budget. */
  readonly window: number;
  /** Instructions in order (agent, operator, thread, state); each with its token count. */
  readonly system: ReadonlyArray<{ readonly content: string; readonly tokens: number }>;
  readonly summary: { readonly content: string; readonly tokens: number; readonly coversSeq: number } | null;
  /**
   * Pinned messages of the active path, oldest first: always sent, in their place by seq,
   * whatever the window or the summary; like the system prompts, they must fit.
   */
  readonly pinned?: readonly HistoryItem[];
  /** Long-term memories offered (pinned, then best match), sent as one system message within their own budget. */
  readonly memories?: MemoryOffer | null;
  /** Excerpts of the actor's past matching the new message (best first), sent as one system message after the memories within their own budget. */
  readonly recall?: RecallOffer | null;
  /**
   * The most recent replayable messages, oldest first: the last `window`, and with `stretch`
   * also the older ones the summary does not cover yet (at most STRETCH_MAX of them).
   */
  readonly history: readonly HistoryItem[];
  /**
   * Rolling summaries: messages past the window that the summary (as sent) does not cover yet
   * are kept too, within the budget, so nothing falls between the window and the summary while
   * a fold catches up.
   */
  readonly stretch?: boolean;
  /** The new user message; null to preview what the next turn would send around it. */
  readonly newMessage: { readonly content: string; readonly tokens: number } | null;
}

type PartKind = 'system' | 'memory' | 'recall' | 'summary' | 'pinned' | 'history' | 'message';

export interface PlannedContext {
  readonly messages: PromptMessage[];
  readonly parts: ReadonlyArray<{
    readonly kind: PartKind;
    readonly role: string;
    readonly tokens: number;
    readonly seq?: number;
  }>;
  readonly budget: number;
  readonly window: number;
  /** Everything the request costs, chat-format overhead included. */
  readonly totalTokens: number;
  /** Window messages (stretch included) left out because they did not fit the budget. */
  readonly omittedForBudget: number;
  /**
   * With `stretch`: messages left out for the budget that the summary sent does not cover
   * either, so the model would not see them at all (0 when the summary has caught up).
   */
  readonly uncoveredOmitted: number;
  readonly summaryIncluded: boolean;
  /** The long-term memories sent, in the order the model reads them (none: []). */
  readonly memoryIds: readonly string[];
  /** The recalled messages sent, best match first (none: []). */
  readonly recalledMessageIds: readonly string[];
  /** The oldest message replayed (null when none): everything before it is out of the window. */
  readonly oldestIncludedSeq: number | null;
}

/** The context cannot fit: the numbers say why. */
export class ContextOverBudgetError extends DomainError {
  readonly code = 'context_over_budget';
  constructor(
    message: string,
    readonly details: {
      readonly budget: number;
      /** messageTokens + systemTokens + requestTokens: what the smallest request would take. */
      readonly requiredTokens: number;
      /** The new message with its chat format. */
      readonly messageTokens: number;
      readonly systemTokens: number;
      /** The chat format of the request itself. */
      readonly requestTokens: number;
      readonly budgetSource: string;
    },
  ) {
    super(message);
  }
}

/** At most this many messages past the window are kept waiting for a fold (a fold that keeps failing leaves the rest out). */
export const STRETCH_MAX = 100;

export const cost = (contentTokens: number) => contentTokens + TOKENS_PER_MESSAGE;

/**
 * What the model sees on a turn, within the token budget and the message window: the system
 * prompts, the running summary when it fits, then as many of the most recent messages as fit
 * (newest kept first, never a gap in the middle; past the window too while the summary does
 * not cover them yet, with `stretch`), then the new message. The new message and
 * the system prompts are never cut; when they alone exceed the budget the turn is refused.
 */
export function planContext(input: PlanInput): PlannedContext {
  const pinned = input.pinned ?? [];
  // Pinned messages are as binding as the instructions: counted with them.
  const systemTokens =
    input.system.reduce((sum, p) => sum + cost(p.tokens), 0) + pinned.reduce((sum, p) => sum + cost(p.tokens), 0);
  const messageTokens = input.newMessage ? cost(input.newMessage.tokens) : 0;
  let total = TOKENS_PER_REQUEST + systemTokens + messageTokens;
  if (input.newMessage && total > input.budget) {
    const source = input.budgetSource ?? 'CONTEXT_TOKEN_BUDGET';
    // The message alone too long, or only together with the system prompts: say which to shorten.
    const shorten =
      TOKENS_PER_REQUEST + messageTokens > input.budget
        ? 'the message'
        : pinned.length
          ? 'the message, the system prompts or the pinned messages'
          : 'the message or the system prompts';
    throw new ContextOverBudgetError(
      `The message needs ${messageTokens} tokens (${input.newMessage.tokens} of text and ${TOKENS_PER_MESSAGE} of chat format); ` +
        `with the system prompts (${systemTokens}) and the request (${TOKENS_PER_REQUEST}) the turn needs ${total}, ` +
        `over the context token budget of ${input.budget} (${source}). Shorten ${shorten} or raise ${source}`,
      {
        budget: input.budget,
        requiredTokens: total,
        messageTokens,
        systemTokens,
        requestTokens: TOKENS_PER_REQUEST,
        budgetSource: source,
      },
    );
  }
  // Memories come before the summary and the history: within their own budget, and what the context has left.
  const memories = selectMemories(input.memories ?? null, input.budget - total);
  total += memories.tokens;
  const recall = selectRecall(input.recall ?? null, input.budget - total);
  total += recall.tokens;
  const summaryIncluded = input.summary !== null && total + cost(input.summary.tokens) <= input.budget;
  if (summaryIncluded) total += cost(input.summary!.tokens);

  const kept: HistoryItem[] = [];
  // What the summary sent covers; with no summary sent, nothing is covered.
  const coveredThrough = summaryIncluded ? input.summary!.coversSeq : 0;
  const inWindow = input.window > 0 ? input.history.slice(-input.window) : [];
  const pinnedSeqs = new Set(pinned.map((p) => p.seq));
  // A pinned message is already counted (and sent in its place): the window goes on without it.
  const window = (
    input.stretch
      ? input.history.filter((m, i) => m.seq > coveredThrough || i >= input.history.length - inWindow.length)
      : inWindow
  ).filter((m) => !pinnedSeqs.has(m.seq));
  for (let i = window.length - 1; i >= 0; i--) {
    const item = window[i];
    if (total + cost(item.tokens) > input.budget) break;
    total += cost(item.tokens);
    kept.unshift(item);
  }
  // The window's edge may fall between a call and its output: neither is sent without the other.
  const paired = withCallsPaired(kept);
  const sent = new Set(paired.map((item) => item.seq));
  for (const item of kept) if (!sent.has(item.seq)) total -= cost(item.tokens);

  const messages: PromptMessage[] = [];
  const parts: Array<PlannedContext['parts'][number]> = [];
  for (const p of input.system) {
    messages.push({ role: 'system', content: p.content });
    parts.push({ kind: 'system', role: 'system', tokens: cost(p.tokens) });
  }
  if (memories.lines.length > 0) {
    messages.push({ role: 'system', content: memoryMessage(input.memories!, memories.lines) });
    parts.push({ kind: 'memory', role: 'system', tokens: memories.tokens });
  }
  if (recall.excerpts.length > 0) {
    messages.push({ role: 'system', content: recallMessage(input.recall!, recall.excerpts) });
    parts.push({ kind: 'recall', role: 'system', tokens: recall.tokens });
  }
  if (summaryIncluded) {
    messages.push({ role: 'system', content: input.summary!.content });
    parts.push({ kind: 'summary', role: 'system', tokens: cost(input.summary!.tokens), seq: input.summary!.coversSeq });
  }
  const replayed = [
    ...paired.map((item) => ({ item, kind: 'history' as const })),
    ...pinned.map((item) => ({ item, kind: 'pinned' as const })),
  ].sort((a, b) => a.item.seq - b.item.seq);
  for (const { item, kind } of replayed) {
    messages.push(promptOf(item));
    parts.push({ kind, role: item.role, tokens: cost(item.tokens), seq: item.seq });
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
    uncoveredOmitted: input.stretch
      ? window.slice(0, window.length - kept.length).filter((m) => m.seq > coveredThrough).length
      : 0,
    summaryIncluded,
    memoryIds: memories.lines.map((l) => l.id),
    recalledMessageIds: recall.excerpts.map((e) => e.id),
    oldestIncludedSeq: paired[0]?.seq ?? null,
  };
}

function promptOf(item: HistoryItem): PromptMessage {
  if (item.role === 'tool') return { role: 'tool', toolCallId: item.callId ?? '', content: item.content };
  if (item.role === 'assistant' && item.functionCalls?.length) {
    return {
      role: 'assistant',
      content: item.content,
      toolCalls: item.functionCalls.map((c) => ({ id: c.callId, name: c.name, arguments: c.arguments })),
    };
  }
  return { role: item.role, content: item.content };
}

/**
 * Chat completions refuses an output without its call right before it, and a call without all
 * its outputs right after: each call is kept with its outputs, or left out with them (a reply's
 * text stays without its unanswered calls).
 */
function withCallsPaired(items: readonly HistoryItem[]): HistoryItem[] {
  const out: HistoryItem[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // An output is kept only with its call, below.
    if (item.role === 'tool') continue;
    if (item.role !== 'assistant' || !item.functionCalls?.length) {
      out.push(item);
      continue;
    }
    let j = i + 1;
    while (j < items.length && items[j].role === 'tool') j++;
    const outputs = items.slice(i + 1, j);
    const calls = new Set(item.functionCalls.map((c) => c.callId));
    const answered = item.functionCalls.every((c) => outputs.some((o) => o.callId === c.callId));
    if (answered) out.push(item, ...outputs.filter((o) => calls.has(o.callId ?? '')));
    else if (item.content !== '') out.push(item.functionCalls ? { ...item, functionCalls: null } : item);
    i = j - 1;
  }
  return out;
}
