import { ContextOverBudgetError, planContext, type HistoryItem, type PlanInput } from './context-planner.js';
import { encodingForModel, TOKENS_PER_MESSAGE, TOKENS_PER_REQUEST } from './token-counter.js';

const history = (n: number, tokens = 10): HistoryItem[] =>
  Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    role: i % 2 ? 'assistant' : 'user',
    content: `m${i + 1}`,
    tokens,
  }));

const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  budget: 1000,
  window: 20,
  system: [{ content: 'sys', tokens: 5 }],
  summary: null,
  history: history(6),
  newMessage: { content: 'new', tokens: 7 },
  ...over,
});

describe('planContext', () => {
  it('sends system, history and the new message in order, counting the chat format', () => {
    const plan = planContext(input());
    expect(plan.messages.map((m) => m.content)).toEqual(['sys', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'new']);
    expect(plan.totalTokens).toBe(TOKENS_PER_REQUEST + (5 + 4) + 6 * (10 + 4) + (7 + 4));
    expect(plan.parts.reduce((s, p) => s + p.tokens, 0) + TOKENS_PER_REQUEST).toBe(plan.totalTokens);
    expect(plan.oldestIncludedSeq).toBe(1);
  });

  it('keeps the most recent messages that fit, never leaving a gap', () => {
    // Room for exactly three history messages of 14 tokens each.
    const fixed = TOKENS_PER_REQUEST + 9 + 11;
    const plan = planContext(input({ budget: fixed + 3 * 14 + 13 }));
    expect(plan.messages.map((m) => m.content)).toEqual(['sys', 'm4', 'm5', 'm6', 'new']);
    expect(plan.totalTokens).toBeLessThanOrEqual(plan.budget);
    expect(plan.omittedForBudget).toBe(3);
    expect(plan.oldestIncludedSeq).toBe(4);
  });

  it('stops at the first message that does not fit, even if an older one would', () => {
    const items: HistoryItem[] = [
      { seq: 1, role: 'user', content: 'small', tokens: 1 },
      { seq: 2, role: 'assistant', content: 'huge', tokens: 500 },
      { seq: 3, role: 'user', content: 'recent', tokens: 1 },
    ];
    const plan = planContext(input({ history: items, budget: 100 }));
    expect(plan.messages.map((m) => m.content)).toEqual(['sys', 'recent', 'new']);
  });

  it('respects the message window as well as the budget', () => {
    expect(planContext(input({ window: 2 })).messages.map((m) => m.content)).toEqual(['sys', 'm5', 'm6', 'new']);
    expect(planContext(input({ window: 0 })).messages.map((m) => m.content)).toEqual(['sys', 'new']);
  });

  it('puts the summary after the system prompts, and drops it when it cannot fit', () => {
    const summary = { content: 'gist', tokens: 50, coversSeq: 0 };
    expect(
      planContext(input({ summary }))
        .messages.slice(0, 2)
        .map((m) => m.content),
    ).toEqual(['sys', 'gist']);
    const tight = planContext(input({ summary, budget: TOKENS_PER_REQUEST + 9 + 11 + 40 }));
    expect(tight.summaryIncluded).toBe(false);
    expect(tight.messages.map((m) => m.content)).toContain('new');
  });

  it('with stretch, keeps past the window what the summary does not cover yet, within the budget', () => {
    const summary = { content: 'gist', tokens: 10, coversSeq: 2 };
    const stretched = planContext(input({ window: 2, summary, stretch: true }));
    expect(stretched.messages.map((m) => m.content)).toEqual(['sys', 'gist', 'm3', 'm4', 'm5', 'm6', 'new']);
    expect(stretched.uncoveredOmitted).toBe(0);
    // Messages the summary covers are not stretched for.
    expect(
      planContext(input({ window: 2, summary: { ...summary, coversSeq: 4 }, stretch: true })).messages.map(
        (m) => m.content,
      ),
    ).toEqual(['sys', 'gist', 'm5', 'm6', 'new']);
    // The budget still binds, and says what the model would not see at all.
    const fixed = TOKENS_PER_REQUEST + 9 + 14 + 11;
    const tight = planContext(input({ window: 2, summary, stretch: true, budget: fixed + 3 * 14 }));
    expect(tight.messages.map((m) => m.content)).toEqual(['sys', 'gist', 'm4', 'm5', 'm6', 'new']);
    expect(tight).toMatchObject({ omittedForBudget: 1, uncoveredOmitted: 1, oldestIncludedSeq: 4 });
    // A summary that does not fit covers nothing.
    const noRoom = planContext(input({ window: 2, summary: { ...summary, tokens: 2000 }, stretch: true, budget: 200 }));
    expect(noRoom).toMatchObject({ summaryIncluded: false, omittedForBudget: 0, uncoveredOmitted: 0 });
    expect(noRoom.messages).toHaveLength(8);
    // Without stretch (SUMMARY_MODE=off) the window is the window.
    expect(planContext(input({ window: 2, summary })).uncoveredOmitted).toBe(0);
  });

  it('refuses a message that alone exceeds the budget, with the numbers', () => {
    const call = () => planContext(input({ budget: 50, newMessage: { content: 'x', tokens: 60 } }));
    expect(call).toThrow(ContextOverBudgetError);
    const message = 60 + TOKENS_PER_MESSAGE;
    const needed = 5 + TOKENS_PER_MESSAGE + message + TOKENS_PER_REQUEST;
    expect(call).toThrow(
      `The message needs ${message} tokens (60 of text and ${TOKENS_PER_MESSAGE} of chat format); with the system prompts (${5 + TOKENS_PER_MESSAGE}) and the request (${TOKENS_PER_REQUEST}) the turn needs ${needed}, over the context token budget of 50 (CONTEXT_TOKEN_BUDGET). Shorten the message or raise CONTEXT_TOKEN_BUDGET`,
    );
    // The details are the very numbers of the message, and add up.
    const error = (() => {
      try {
        call();
      } catch (e) {
        return e as ContextOverBudgetError;
      }
    })()!;
    expect(error.details).toEqual({
      budget: 50,
      requiredTokens: needed,
      messageTokens: message,
      systemTokens: 5 + TOKENS_PER_MESSAGE,
      requestTokens: TOKENS_PER_REQUEST,
      budgetSource: 'CONTEXT_TOKEN_BUDGET',
    });
  });

  it("names the agent's contextTokenBudget when that is the budget", () => {
    const call = () =>
      planContext(
        input({ budget: 50, budgetSource: "the agent's contextTokenBudget", newMessage: { content: 'x', tokens: 60 } }),
      );
    expect(call).toThrow(
      /budget of 50 \(the agent's contextTokenBudget\)\. Shorten the message or raise the agent's contextTokenBudget$/,
    );
  });

  it('refuses when the system prompts and the message together exceed the budget', () => {
    expect(() =>
      planContext(
        input({ budget: 30, system: [{ content: 'long', tokens: 25 }], newMessage: { content: 'x', tokens: 5 } }),
      ),
    ).toThrow(
      /with the system prompts \(29\) and the request \(\d+\) the turn needs \d+, over the context token budget of 30 \(CONTEXT_TOKEN_BUDGET\)\. Shorten the message or the system prompts or raise CONTEXT_TOKEN_BUDGET$/,
    );
  });

  it('previews without a new message', () => {
    const plan = planContext(input({ newMessage: null }));
    expect(plan.messages.at(-1)!.content).toBe('m6');
  });
});

describe('encodingForModel', () => {
  it.each([
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['llama3.2', 'o200k_base'],
    ['echo', 'o200k_base'],
  ])('%s uses %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });
});

describe('function calls and their outputs', () => {
  const call = (seq: number, ids: string[], content = ''): HistoryItem => ({
    seq,
    role: 'assistant',
    content,
    tokens: 10,
    functionCalls: ids.map((id) => ({ callId: id, name: 'f', arguments: '{}' })),
  });
  const output = (seq: number, id: string): HistoryItem => ({
    seq,
    role: 'tool',
    content: `out ${id}`,
    tokens: 10,
    callId: id,
  });
  const ask = (seq: number): HistoryItem => ({ seq, role: 'user', content: `q${seq}`, tokens: 10 });

  it('sends a call with its outputs in the chat-completions shape', () => {
    const plan = planContext(
      input({ history: [ask(1), call(2, ['a', 'b']), output(3, 'a'), output(4, 'b')], newMessage: null }),
    );
    expect(plan.messages.slice(1)).toEqual([
      { role: 'user', content: 'q1' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'f', arguments: '{}' },
          { id: 'b', name: 'f', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'out a' },
      { role: 'tool', toolCallId: 'b', content: 'out b' },
    ]);
  });

  it('never separates them: a window starting at an output leaves that output out, and a call without all its outputs goes too', () => {
    const history = [ask(1), call(2, ['a']), output(3, 'a'), ask(4), call(5, ['b', 'c'], 'let me see'), output(6, 'b')];
    // The window's edge falls between call 2 and its output 3.
    const plan = planContext(input({ history, window: 4, newMessage: null }));
    expect(plan.messages.slice(1)).toEqual([
      { role: 'user', content: 'q4' },
      { role: 'assistant', content: 'let me see' },
    ]);
    expect(plan.oldestIncludedSeq).toBe(4);
    expect(plan.totalTokens).toBe(TOKENS_PER_REQUEST + 9 + 2 * 14);
  });

  describe('recall', () => {
    const recall = (budget: number, tokens: number[]) => ({
      header: 'Past:',
      headerTokens: 2,
      budget,
      excerpts: tokens.map((t, i) => ({ id: `r${i + 1}`, content: `excerpt ${i + 1}`, tokens: t })),
    });
    const memories = {
      header: 'Memories:',
      headerTokens: 2,
      budget: 100,
      lines: [{ id: 'mem', content: '- likes tea', tokens: 4 }],
    };

    it('sends the excerpts that fit RECALL_TOKEN_BUDGET as one system message after the memories, best first, and names them', () => {
      // 4 + 2 (header) + 10 + 10 fit in 28; the third (10 more) does not, the fourth (2) does.
      const plan = planContext(input({ memories, recall: recall(28, [10, 10, 10, 2]) }));
      expect(plan.messages.slice(0, 3).map((m) => m.content)).toEqual([
        'sys',
        'Memories:\n- likes tea',
        'Past:\n\nexcerpt 1\n\nexcerpt 2\n\nexcerpt 4',
      ]);
      expect(plan.parts[2]).toEqual({ kind: 'recall', role: 'system', tokens: TOKENS_PER_MESSAGE + 2 + 22 });
      expect(plan.recalledMessageIds).toEqual(['r1', 'r2', 'r4']);
      expect(plan.parts.reduce((sum, p) => sum + p.tokens, 0) + TOKENS_PER_REQUEST).toBe(plan.totalTokens);
    });

    it('gives recall only what the context has left, before the summary and the history', () => {
      const fixed = TOKENS_PER_REQUEST + 9 + 11;
      const plan = planContext(input({ budget: fixed + TOKENS_PER_MESSAGE + 2 + 10, recall: recall(1000, [10, 10]) }));
      expect(plan.recalledMessageIds).toEqual(['r1']);
      expect(plan.messages.map((m) => m.content)).toEqual(['sys', 'Past:\n\nexcerpt 1', 'new']);
      expect(plan.totalTokens).toBeLessThanOrEqual(plan.budget);
    });

    it('sends nothing of recall when not even one excerpt fits, and records none', () => {
      const plan = planContext(input({ recall: recall(5, [10]) }));
      expect(plan.parts.map((p) => p.kind)).not.toContain('recall');
      expect(plan.recalledMessageIds).toEqual([]);
    });
  });
});
