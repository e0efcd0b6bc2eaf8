import { planContext, type HistoryItem, type PlanInput } from './context-planner.js';
import { foldAheadBoundary } from './fold-ahead.js';
import { TOKENS_PER_REQUEST } from './token-counter.js';

// Questions and replies of 10 content tokens (14 in a context); the turn's question is seq 13.
const history = (n: number): HistoryItem[] =>
  Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    role: i % 2 ? 'assistant' : 'user',
    content: `m${i + 1}`,
    tokens: 10,
  }));
const turn = (over: Partial<PlanInput> = {}) =>
  planContext({
    budget: 10_000,
    window: 4,
    system: [{ content: 'sys', tokens: 5 }],
    summary: null,
    history: history(12),
    newMessage: { content: 'q', tokens: 10 },
    ...over,
  });
const question = { seq: 13 };
const reply = { seq: 14, tokens: 10 };

describe('foldAheadBoundary', () => {
  it('folds what the next turn will not replay under the window: it keeps seq 11-14', () => {
    expect(foldAheadBoundary({ context: turn(), question, reply, summaryReserve: 100 })).toBe(11);
  });

  it('under the budget, keeps room for a question like this one and the summary at its largest', () => {
    // The next turn: request, sys (9), summary (100 + 4), question (14): three history messages fit.
    const budget = TOKENS_PER_REQUEST + 9 + 104 + 14 + 3 * 14;
    const context = turn({ budget: budget + 200, window: 20 });
    expect(foldAheadBoundary({ context: { ...context, budget }, question, reply, summaryReserve: 100 })).toBe(12);
  });

  it("never folds the turn's own question and reply (a regeneration replaces the reply)", () => {
    expect(foldAheadBoundary({ context: turn({ window: 0 }), question, reply, summaryReserve: 100 })).toBe(13);
    const context = turn();
    expect(foldAheadBoundary({ context: { ...context, budget: 200 }, question, reply, summaryReserve: 5000 })).toBe(13);
  });

  it('counts an empty reply as no message', () => {
    expect(
      foldAheadBoundary({ context: turn(), question, reply: { seq: 14, tokens: null }, summaryReserve: 100 }),
    ).toBe(10);
  });
});
