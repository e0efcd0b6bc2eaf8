import { loadConfig } from '../config/app-config.js';
import { ContextAssembler } from '../context/context-assembler.js';
import type { ContextMemory, ContextMessage, ContextSummary } from '../context/context-sources.js';
import { STRETCH_MAX } from '../context/context-planner.js';
import { TokenCounter } from '../context/token-counter.js';
import type { Agent } from '../agents/agent.entity.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import type { LlmPort } from '../llm/llm.port.js';
import { TurnPlanner } from './turn-planner.js';
import type { HistoryReader, TurnDraft } from './turn.js';

/** A thread's stored history in memory, recording what the planner asks of it. */
class FakeHistory implements HistoryReader {
  readonly reads: Array<{ beforeSeq: number; limit: number; afterSeq?: number }> = [];
  readonly memoryQueries: Array<string | null> = [];
  constructor(
    private readonly messages: ContextMessage[],
    private readonly stored: ContextSummary | null = null,
    private readonly pinnedSeqs: number[] = [],
    private readonly remembered: ContextMemory[] = [],
  ) {}

  async window(
    thread: string,
    beforeSeq: number,
    limit: number,
  ): Promise<{ recent: ContextMessage[]; pinned: ContextMessage[] }> {
    const pinned = this.messages.filter((m) => this.pinnedSeqs.includes(m.seq) && m.seq < beforeSeq);
    return { recent: await this.recent(thread, beforeSeq, limit), pinned };
  }

  memories(question: string | null): Promise<ContextMemory[]> {
    this.memoryQueries.push(question);
    return Promise.resolve(this.remembered);
  }

  summary(): Promise<ContextSummary | null> {
    return Promise.resolve(this.stored);
  }

  recent(_thread: string, beforeSeq: number, limit: number, afterSeq = 0): Promise<ContextMessage[]> {
    this.reads.push({ beforeSeq, limit, afterSeq });
    const inRange = this.messages.filter((m) => m.seq < beforeSeq && m.seq > afterSeq);
    return Promise.resolve(inRange.slice(-limit));
  }
}

const messages = (n: number): ContextMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    role: i % 2 ? 'assistant' : 'user',
    content: `m${i + 1}`,
    tokens: 3,
  }));

const conversation = { id: 'c1', state: {}, memory: true } as unknown as Conversation;
const agent = (over: Partial<Agent> = {}) =>
  ({
    model: 'agent-model',
    systemPrompt: 'be brief',
    contextTokenBudget: null,
    tools: [],
    ...over,
  }) as unknown as Agent;
const draft = (over: Partial<TurnDraft> = {}): TurnDraft => ({
  conversation,
  agent: null,
  thread: { name: 'main', systemPrompt: null },
  beforeSeq: 100,
  question: { content: 'hello there', tokens: null },
  ...over,
});

async function plannerWith(env: Record<string, string> = {}): Promise<TurnPlanner> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', HISTORY_WINDOW: '4', SYSTEM_PROMPT: 'sys', ...env });
  const tokens = new TokenCounter(config);
  await tokens.onModuleInit();
  const llm = { defaultModel: 'default-model' } as LlmPort;
  return new TurnPlanner(new ContextAssembler(tokens, config), llm, config);
}

describe('TurnPlanner', () => {
  it("answers with the agent's model, or the default one", async () => {
    const planner = await plannerWith();
    expect((await planner.plan(draft(), new FakeHistory([]))).model).toBe('default-model');
    expect((await planner.plan(draft({ agent: agent() }), new FakeHistory([]))).model).toBe('agent-model');
  });

  it('sends the instructions in order, the window of history, then the question', async () => {
    const planner = await plannerWith({ SUMMARY_MODE: 'off' });
    const plan = await planner.plan(
      draft({ agent: agent(), thread: { name: 'main', systemPrompt: 'thread prompt' } }),
      new FakeHistory(messages(9)),
    );
    expect(plan.context.messages.map((m) => m.content)).toEqual([
      'be brief',
      'sys',
      'thread prompt',
      'm6',
      'm7',
      'm8',
      'm9',
      'hello there',
    ]);
    expect(plan.questionTokens).toBeGreaterThan(0);
    expect(plan.summaryCoversSeq).toBeNull();
  });

  it('keeps a stored token count of the question instead of counting it again', async () => {
    const planner = await plannerWith();
    const plan = await planner.plan(draft({ question: { content: 'hello there', tokens: 77 } }), new FakeHistory([]));
    expect(plan.questionTokens).toBe(77);
  });

  it('with a full window and a rolling summary, also reads what the summary does not cover yet', async () => {
    const planner = await plannerWith({ SUMMARY_MODE: 'rolling' });
    const history = new FakeHistory(messages(9), { content: 'earlier things', coversSeq: 2 });
    const plan = await planner.plan(draft({ beforeSeq: 10 }), history);
    expect(history.reads).toEqual([
      { beforeSeq: 10, limit: 4, afterSeq: 0 },
      { beforeSeq: 6, limit: STRETCH_MAX, afterSeq: 2 },
    ]);
    // Messages 3-5 are past the window but not in the summary: they are sent too (the stretch).
    expect(plan.context.messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
      'm8',
      'm9',
      'hello there',
    ]);
    expect(plan.summaryCoversSeq).toBe(2);
  });

  it('reads only the window when summaries are off, or when the window is not full', async () => {
    const off = new FakeHistory(messages(9));
    await (await plannerWith({ SUMMARY_MODE: 'off' })).plan(draft(), off);
    expect(off.reads).toHaveLength(1);
    const short = new FakeHistory(messages(3));
    await (await plannerWith({ SUMMARY_MODE: 'rolling' })).plan(draft(), short);
    expect(short.reads).toHaveLength(1);
  });

  it('previews the next turn without a question', async () => {
    const planner = await plannerWith({ SUMMARY_MODE: 'off' });
    const plan = await planner.plan(draft({ question: null }), new FakeHistory(messages(2)));
    expect(plan.questionTokens).toBe(0);
    expect(plan.context.messages.map((m) => m.content)).toEqual(['sys', 'm1', 'm2']);
  });

  describe('memories and pinned messages', () => {
    const facts: ContextMemory[] = [
      { id: 'p1', text: 'Pinned: prefers metric units' },
      { id: 'm1', text: 'Has a cat named Tofu' },
      { id: 'm2', text: 'Lives near the sea' },
    ];

    it('sends the memories as one system message after the instructions and before the history, and records their ids', async () => {
      const planner = await plannerWith();
      const history = new FakeHistory(messages(3), null, [], facts);
      const { context } = await planner.plan(draft(), history);
      expect(history.memoryQueries).toEqual(['hello there']);
      expect(context.parts.map((p) => p.kind)).toEqual([
        'system',
        'memory',
        'history',
        'history',
        'history',
        'message',
      ]);
      expect(context.messages[1].content).toMatch(
        /earlier conversations[\s\S]*- Pinned: prefers metric units\n- Has a cat named Tofu\n- Lives near the sea$/,
      );
      expect(context.memoryIds).toEqual(['p1', 'm1', 'm2']);
    });

    it('keeps the memory message within MEMORY_TOKEN_BUDGET, first ones first', async () => {
      const planner = await plannerWith({ MEMORY_TOKEN_BUDGET: '40' });
      const { context } = await planner.plan(draft(), new FakeHistory([], null, [], facts));
      const memory = context.parts.find((p) => p.kind === 'memory')!;
      expect(memory.tokens).toBeLessThanOrEqual(40);
      expect(context.memoryIds.length).toBeGreaterThan(0);
      expect(context.memoryIds.length).toBeLessThan(3);
      expect(context.memoryIds[0]).toBe('p1');
    });

    it('reads no memories with MEMORY_MODE=off, in a temporary chat, or with a budget of 0', async () => {
      for (const [env, conv] of [
        [{ MEMORY_MODE: 'off' }, conversation],
        [{}, { ...conversation, memory: false }],
        [{ MEMORY_TOKEN_BUDGET: '0' }, conversation],
      ] as const) {
        const planner = await plannerWith(env);
        const history = new FakeHistory([], null, [], facts);
        const { context } = await planner.plan(draft({ conversation: conv as Conversation }), history);
        expect(history.memoryQueries).toEqual([]);
        expect(context.memoryIds).toEqual([]);
      }
    });

    it('shows ids to a model that may forget, and reads pinned memories only for a preview', async () => {
      const planner = await plannerWith();
      const history = new FakeHistory([], null, [], facts);
      const { context } = await planner.plan(draft({ agent: agent({ tools: ['forget'] }), question: null }), history);
      expect(history.memoryQueries).toEqual([null]);
      expect(context.messages.find((m) => m.content.includes('Tofu'))!.content).toContain(
        '- [m1] Has a cat named Tofu',
      );
    });

    it('sends a pinned message far out of the window in its place, counted, and never twice', async () => {
      const planner = await plannerWith();
      const { context } = await planner.plan(draft(), new FakeHistory(messages(10), null, [2, 9]));
      expect(context.parts.filter((p) => p.kind !== 'system').map((p) => `${p.kind}:${p.seq ?? ''}`)).toEqual([
        'pinned:2',
        'history:7',
        'history:8',
        'pinned:9',
        'history:10',
        'message:',
      ]);
    });

    it('refuses a question that does not fit beside the pinned messages', async () => {
      const planner = await plannerWith({ CONTEXT_TOKEN_BUDGET: '100' });
      const long: ContextMessage[] = [{ seq: 1, role: 'user', content: 'x', tokens: 90 }];
      await expect(planner.plan(draft(), new FakeHistory(long, null, [1]))).rejects.toThrow(/pinned messages/);
    });
  });

  describe('recall', () => {
    const recalled = [
      {
        id: 'other',
        conversationId: 'c2',
        seq: 7,
        conversationTitle: 'Trip',
        createdAt: new Date('2026-01-02T00:00:00Z'),
        role: 'user' as const,
        content: 'We went to Porto',
        neighbour: null,
      },
      {
        id: 'old',
        conversationId: 'c1',
        seq: 2,
        conversationTitle: 'Here',
        createdAt: new Date('2026-01-03T00:00:00Z'),
        role: 'assistant' as const,
        content: 'm2 again',
        neighbour: null,
      },
      {
        id: 'window',
        conversationId: 'c1',
        seq: 9,
        conversationTitle: 'Here',
        createdAt: new Date('2026-01-04T00:00:00Z'),
        role: 'user' as const,
        content: 'm9',
        neighbour: null,
      },
    ];

    it("sends other conversations' matches and this one's messages older than the window, never what the window holds", async () => {
      const plan = await (await plannerWith()).plan(draft({ beforeSeq: 11, recalled }), new FakeHistory(messages(10)));
      expect(plan.context.recalledMessageIds).toEqual(['other', 'old']);
      const recall = plan.context.messages.find(
        (m) => typeof m.content === 'string' && m.content.includes('We went to Porto'),
      );
      expect(recall?.content).toContain('[2026-01-02, "Trip"]\nuser: We went to Porto');
    });

    it('sends nothing recalled with RECALL_MODE=off, an agent whose memory is off, or a temporary chat', async () => {
      const history = () => new FakeHistory(messages(10));
      expect(
        (await (await plannerWith({ RECALL_MODE: 'off' })).plan(draft({ beforeSeq: 11, recalled }), history())).context
          .recalledMessageIds,
      ).toEqual([]);
      const quiet = agent({ memoryMode: 'off' } as Partial<Agent>);
      expect(
        (await (await plannerWith()).plan(draft({ beforeSeq: 11, recalled, agent: quiet }), history())).context
          .recalledMessageIds,
      ).toEqual([]);
      const temporary = { ...conversation, memory: false } as unknown as Conversation;
      expect(
        (await (await plannerWith()).plan(draft({ beforeSeq: 11, recalled, conversation: temporary }), history()))
          .context.recalledMessageIds,
      ).toEqual([]);
    });
  });
});
