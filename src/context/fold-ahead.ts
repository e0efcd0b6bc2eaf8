import { cost, type PlannedContext } from './context-planner.js';
import { TOKENS_PER_REQUEST } from './token-counter.js';

interface FoldAheadInput {
  /** What the turn that just ended was sent. */
  readonly context: PlannedContext;
  /** Its question and reply: the next turn's newest history. */
  readonly question: { readonly seq: number };
  readonly reply: { readonly seq: number; readonly tokens: number | null };
  /** Room kept for the summary, content tokens: the most a fold can make it grow to. */
  readonly summaryReserve: number;
}

/**
 * Where the fold after a turn must reach (every message before the returned seq) so that the
 * next turn finds the summary already covering what it will not replay: the next turn is
 * assumed to be like this one (same system messages, a question as long as this one, the
 * summary at its largest), and keeps the newest messages within the window and that budget.
 * The turn's own question and reply are never folded: a regeneration replaces the reply.
 */
export function foldAheadBoundary(input: FoldAheadInput): number {
  const { context, question, reply } = input;
  const history = context.parts
    .filter((p) => p.kind === 'history' && p.seq !== undefined)
    .map((p) => ({ seq: p.seq!, tokens: p.tokens }));
  const questionTokens = context.parts.find((p) => p.kind === 'message')?.tokens ?? 0;
  const candidates = [...history, { seq: question.seq, tokens: questionTokens }];
  if (reply.tokens) candidates.push({ seq: reply.seq, tokens: cost(reply.tokens) });
  const system = context.parts.filter((p) => p.kind === 'system').reduce((sum, p) => sum + p.tokens, 0);
  const summary = Math.max(cost(input.summaryReserve), context.parts.find((p) => p.kind === 'summary')?.tokens ?? 0);
  let room = context.budget - TOKENS_PER_REQUEST - system - summary - questionTokens;
  let oldestKept = question.seq;
  for (let i = candidates.length - 1, count = 0; i >= 0 && count < context.window; i--, count++) {
    room -= candidates[i].tokens;
    if (room < 0) break;
    oldestKept = Math.min(oldestKept, candidates[i].seq);
  }
  return Math.min(oldestKept, question.seq);
}
