import { Test, type TestingModule } from '@nestjs/testing';
import { apiActor } from '../actor-auth/actor.js';
import { AgentsModule } from '../agents/agents.module.js';
import { MemoryModule } from '../memory/memory.module.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { ContextOverBudgetError, planContext } from '../context/context-planner.js';
import { ConversationBusyError, ConversationStateError } from '../conversations/conversation.errors.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { DatabaseModule } from '../database/database.module.js';
import { ENTITIES } from '../entities.js';
import { ReplyStore } from './reply-store.js';
import { TurnStore } from './turn-store.js';
import { TurnHistory } from './turn-history.js';
import { ContextPreviews } from './context-previews.js';
import { RepliesAwaitingStorage } from './replies-awaiting-storage.js';
import type { PlanTurn, TurnDraft } from './turn.js';

/** A plan that sends only the question, and records what the store asked. */
function recordingPlan(model = 'planned-model'): { plan: PlanTurn; drafts: TurnDraft[] } {
  const drafts: TurnDraft[] = [];
  const plan: PlanTurn = async (draft, history) => {
    drafts.push(draft);
    const recent = await history.recent(draft.thread.name, draft.beforeSeq, 10);
    const items = recent.map((m) => ({
      seq: m.seq,
      role: m.role as 'user' | 'assistant',
      content: m.content,
      tokens: m.tokens ?? 1,
    }));
    const newMessage = draft.question ? { content: draft.question.content, tokens: 5 } : null;
    const context = planContext({ budget: 10_000, window: 10, system: [], summary: null, history: items, newMessage });
    return { model, context, questionTokens: newMessage ? 5 : 0, summaryCoversSeq: null };
  };
  return { plan, drafts };
}

describe('TurnStore', () => {
  const alice = apiActor('alice');
  let module: TestingModule;
  let store: TurnStore;
  let replies: ReplyStore;
  let conversations: ConversationsService;

  beforeEach(async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', REPLY_LEASE_MS: '60000' });
    module = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, ENTITIES),
        ConversationsModule,
        AgentsModule,
        MemoryModule,
      ],
      providers: [TurnStore, TurnHistory, ContextPreviews, ReplyStore, RepliesAwaitingStorage],
    }).compile();
    await module.init();
    store = module.get(TurnStore);
    replies = module.get(ReplyStore);
    conversations = module.get(ConversationsService);
  });
  afterEach(() => module.close());

  it("stores the question with the plan's token count and a streaming reply for the plan's model", async () => {
    const { plan, drafts } = recordingPlan();
    const turn = await store.startTurn(alice, { content: 'hello' }, plan);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ beforeSeq: 1, question: { content: 'hello', tokens: null }, agent: null });
    expect(turn).toMatchObject({ created: true, model: 'planned-model', summaryCoversSeq: 0 });
    const { messages } = await conversations.getWithMessages(alice, turn.conversation.id);
    expect(messages.map((m) => [m.seq, m.role, m.content, m.status, m.tokens, m.model])).toEqual([
      [1, 'user', 'hello', 'complete', 5, null],
      [2, 'assistant', '', 'streaming', null, 'planned-model'],
    ]);
  });

  it('stores nothing when the plan refuses the question', async () => {
    const refuse: PlanTurn = () =>
      Promise.reject(
        new ContextOverBudgetError('too big', {
          budget: 10,
          requiredTokens: 20,
          messageTokens: 20,
          systemTokens: 0,
          requestTokens: 3,
          budgetSource: 'CONTEXT_TOKEN_BUDGET',
        }),
      );
    await expect(store.startTurn(alice, { content: 'too big' }, refuse)).rejects.toBeInstanceOf(ContextOverBudgetError);
    expect((await conversations.list(alice, 10)).items).toHaveLength(0);
  });

  it('plans a later turn over the history before its question, and refuses one while a reply streams', async () => {
    const { plan, drafts } = recordingPlan();
    const first = await store.startTurn(alice, { content: 'one' }, plan);
    await expect(
      store.startTurn(alice, { content: 'two', conversationId: first.conversation.id }, plan),
    ).rejects.toBeInstanceOf(ConversationBusyError);
    await replies.finishReply(first.reply, {
      status: 'complete',
      content: 'answer one',
      model: 'm',
      usage: null,
      error: null,
      tokens: 2,
    });
    const second = await store.startTurn(alice, { content: 'two', conversationId: first.conversation.id }, plan);
    expect(drafts.at(-1)?.beforeSeq).toBe(3);
    expect(second.context.messages.map((m) => m.content)).toEqual(['one', 'answer one', 'two']);
  });

  it('regenerates as a new reply beside the old one, which leaves the active path', async () => {
    const { plan, drafts } = recordingPlan('second-model');
    const turn = await store.startTurn(alice, { content: 'q' }, recordingPlan('first-model').plan);
    await replies.finishReply(turn.reply, {
      status: 'complete',
      content: 'first answer',
      model: 'first-model',
      usage: null,
      error: null,
    });
    const again = await store.startRegeneration(alice, turn.conversation.id, 'main', plan);
    expect(drafts[0]).toMatchObject({ beforeSeq: 1, question: { content: 'q' } });
    expect(again.reply.id).not.toBe(turn.reply.id);
    expect(again.reply).toMatchObject({
      status: 'streaming',
      content: '',
      model: 'second-model',
      parentId: turn.question.id,
      seq: 3,
    });
    const { messages } = await conversations.getWithMessages(alice, turn.conversation.id);
    expect(messages.map((m) => m.id)).toEqual([turn.question.id, again.reply.id]);
    expect(messages[1].siblingIds).toEqual([turn.reply.id, again.reply.id]);
  });

  it('continues from a named message on a new branch, and an edit starts one beside the edited question', async () => {
    const { plan } = recordingPlan();
    const done = (t: { reply: { id: string; conversationId: string; actor: string } }, content: string) =>
      replies.finishReply(t.reply, { status: 'complete', content, model: 'm', usage: null, error: null });
    const one = await store.startTurn(alice, { content: 'one' }, plan);
    await done(one, 'a1');
    const id = one.conversation.id;
    const two = await store.startTurn(alice, { content: 'two', conversationId: id }, plan);
    await done(two, 'a2');
    // From the first answer again: "two" and its answer leave the path.
    const branch = await store.startTurn(
      alice,
      { content: 'other two', conversationId: id, parentMessageId: one.reply.id },
      plan,
    );
    expect(branch.question.parentId).toBe(one.reply.id);
    expect(branch.context.messages.map((m) => m.content)).toEqual(['one', 'a1', 'other two']);
    await done(branch, 'b2');
    // An edit of the first question: a new root, the whole path before it left behind.
    const edit = await store.startTurn(
      alice,
      { content: 'ONE', conversationId: id, editMessageId: one.question.id },
      plan,
    );
    expect(edit.question.parentId).toBeNull();
    expect(edit.context.messages.map((m) => m.content)).toEqual(['ONE']);
    await done(edit, 'A1');
    const { messages } = await conversations.getWithMessages(alice, id);
    expect(messages.map((m) => m.content)).toEqual(['ONE', 'A1']);
    expect(messages[0].siblingIds).toEqual([one.question.id, edit.question.id]);
  });

  it('refuses to edit a reply, or to branch from a message of another thread', async () => {
    const { plan } = recordingPlan();
    const one = await store.startTurn(alice, { content: 'one' }, plan);
    await replies.finishReply(one.reply, { status: 'complete', content: 'a', model: 'm', usage: null, error: null });
    const id = one.conversation.id;
    await expect(
      store.startTurn(alice, { content: 'x', conversationId: id, editMessageId: one.reply.id }, plan),
    ).rejects.toBeInstanceOf(ConversationStateError);
    await expect(
      store.startTurn(alice, { content: 'x', conversationId: id, parentMessageId: one.reply.id, thread: 'side' }, plan),
    ).rejects.toThrow(/thread "main"/);
  });

  it('has nothing to regenerate in an empty thread', async () => {
    const { conversation } = await store.startTurn(alice, { content: 'q' }, recordingPlan().plan);
    await expect(store.startRegeneration(alice, conversation.id, 'other', recordingPlan().plan)).rejects.toBeInstanceOf(
      ConversationStateError,
    );
  });

  it('previews without a question and counts what lies outside the window', async () => {
    const { plan, drafts } = recordingPlan();
    const turn = await store.startTurn(alice, { content: 'q' }, plan);
    await replies.finishReply(turn.reply, { status: 'complete', content: 'a', model: 'm', usage: null, error: null });
    const { plan: preview, outsideWindow } = await module
      .get(ContextPreviews)
      .preview(alice, turn.conversation.id, 'main', plan);
    expect(drafts.at(-1)).toMatchObject({ beforeSeq: 3, question: null });
    expect(preview.context.messages.map((m) => m.content)).toEqual(['q', 'a']);
    expect(outsideWindow).toBe(0);
  });
});
