import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { apiActor } from '../actor-auth/actor.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import {
  ConversationBusyError,
  ConversationNotFoundError,
  ForbiddenConversationError,
  InvalidInputError,
} from '../conversations/conversation.errors.js';
import { AgentsModule } from '../agents/agents.module.js';
import { MemoryModule } from '../memory/memory.module.js';
import { RecallModule } from '../recall/recall.module.js';
import { ContextModule } from '../context/context.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { DatabaseModule } from '../database/database.module.js';
import { ENTITIES } from '../entities.js';
import { ModelCancelledError, ModelTimeoutError, ModelUnavailableError } from '../llm/llm.errors.js';
import { LLM_PORT, type Completion, type CompletionRequest, type LlmPort } from '../llm/llm.port.js';
import { ChatTurnFailedError } from './chat.errors.js';
import { ChatService } from './chat.service.js';
import { ConversationTitler } from './conversation-titler.js';
import { UnstoredTurns } from './unstored-turn.js';
import { ReplyGenerator } from './reply-generator.js';
import { GenerationSlots } from './generation-slots.js';
import { RepliesAwaitingStorage } from './replies-awaiting-storage.js';
import { ProgressSaver } from './progress-saver.js';
import { FollowerReads } from './follower-reads.js';
import { Summarizer } from './summarizer.js';
import { TurnPlanner } from './turn-planner.js';
import { ReplyStore } from './reply-store.js';
import { TurnStore } from './turn-store.js';
import { TurnHistory } from './turn-history.js';
import { ModelConversation } from './model-conversation.js';
import { MessagePins } from './message-pins.js';
import { ContextPreviews } from './context-previews.js';
import { until } from '../../test/support/until.js';

type Step = (req: CompletionRequest, onDelta: (t: string) => void) => Promise<Completion>;

/** A scripted model: each call runs the next step, or answers "ok". */
class ScriptedLlm implements LlmPort {
  readonly defaultModel = 'scripted';
  readonly calls: CompletionRequest[] = [];
  readonly steps: Step[] = [];

  complete(request: CompletionRequest): Promise<Completion> {
    return this.next(request, () => undefined);
  }

  stream(request: CompletionRequest, onDelta: (t: string) => void): Promise<Completion> {
    return this.next(request, onDelta);
  }

  private async next(request: CompletionRequest, onDelta: (t: string) => void): Promise<Completion> {
    this.calls.push(request);
    const step = this.steps.shift();
    if (step) return step(request, onDelta);
    onDelta('ok');
    return { content: 'ok', model: 'scripted', usage: { promptTokens: 3, completionTokens: 1 }, toolCalls: [] };
  }
}

/** A model call that waits until released, or until its request is aborted. */
function heldStep(): { step: Step; release: (text: string) => void } {
  let release!: (text: string) => void;
  const step: Step = (req, onDelta) =>
    new Promise((resolve, reject) => {
      onDelta('partial ');
      req.signal?.addEventListener('abort', () => reject(new ModelCancelledError()));
      release = (text) => resolve({ content: text, model: 'scripted', usage: null, toolCalls: [] });
    });
  return { step, release: (text) => release(text) };
}

describe('ChatService', () => {
  const alice = apiActor('alice');
  const bob = apiActor('bob');
  let module: TestingModule;
  let chat: ChatService;
  let conversations: ConversationsService;
  let llm: ScriptedLlm;

  beforeEach(async () => {
    llm = new ScriptedLlm();
    const config = loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      HISTORY_WINDOW: '4',
      SYSTEM_PROMPT: 'sys',
      MAX_MESSAGE_CHARS: '50',
      STREAM_FLUSH_MS: '20',
      REPLY_LEASE_MS: '1000',
      // The tests of a model call that ignores the abort wait this long.
      MODEL_STOP_GRACE_MS: '100',
    });
    module = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, ENTITIES),
        ConversationsModule,
        AgentsModule,
        ContextModule,
        MemoryModule,
        RecallModule,
      ],
      providers: [
        ChatService,
        TurnPlanner,
        TurnStore,
        TurnHistory,
        ModelConversation,
        MessagePins,
        ContextPreviews,
        ReplyStore,
        ReplyGenerator,
        GenerationSlots,
        RepliesAwaitingStorage,
        ProgressSaver,
        FollowerReads,
        Summarizer,
        UnstoredTurns,
        { provide: LLM_PORT, useValue: llm },
        ConversationTitler,
      ],
    }).compile();
    await module.init();
    chat = module.get(ChatService);
    conversations = module.get(ConversationsService);
  });
  afterEach(() => module.close());

  const onlyConversation = async () => {
    const page = await conversations.list(alice, 10);
    return conversations.getWithMessages(alice, page.items[0].id);
  };

  it('commits the question, and an empty streaming reply, before the model is called', async () => {
    llm.steps.push(async () => {
      const { messages } = await onlyConversation();
      expect(messages.map((m) => [m.seq, m.role, m.content, m.status])).toEqual([
        [1, 'user', 'hello', 'complete'],
        [2, 'assistant', '', 'streaming'],
      ]);
      return { content: 'hi!', model: 'scripted', usage: null, toolCalls: [] };
    });
    const result = await chat.run(alice, { ask: { message: 'hello' } });
    expect(result).toMatchObject({ reply: 'hi!', created: true, title: 'hello', status: 'complete' });
    const { messages } = await onlyConversation();
    expect(messages[1]).toMatchObject({ id: result.messageId, content: 'hi!', status: 'complete', leaseUntil: null });
  });

  it('replays the system prompt and the last HISTORY_WINDOW messages', async () => {
    const { conversationId } = await chat.run(alice, { ask: { message: 'q1' } });
    for (const q of ['q2', 'q3', 'q4']) await chat.run(alice, { ask: { message: q, conversationId } });
    expect(llm.calls.at(-1)!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'q3' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'q4' },
    ]);
  });

  it('records a failed reply with its error and raises ChatTurnFailedError with the ids', async () => {
    llm.steps.push(() => Promise.reject(new ModelTimeoutError(1000)));
    const error = (await chat
      .run(alice, { ask: { message: 'will fail' } })
      .catch((e: unknown) => e)) as ChatTurnFailedError;
    expect(error).toBeInstanceOf(ChatTurnFailedError);
    expect(error.reason).toBe('model_timeout');
    const { messages } = await conversations.getWithMessages(alice, error.conversationId);
    expect(messages.map((m) => [m.id, m.role, m.status, m.errorCode])).toEqual([
      [error.userMessageId, 'user', 'complete', null],
      [error.messageId, 'assistant', 'failed', 'model_timeout'],
    ]);
  });

  it('keeps the partial text of a stream that breaks off', async () => {
    llm.steps.push(async (_req, onDelta) => {
      onDelta('Half an ');
      onDelta('answer');
      throw new ModelUnavailableError("The model's stream ended before the reply was finished");
    });
    const deltas: string[] = [];
    const outcome = await chat.run(
      alice,
      { ask: { message: 'tell me' } },
      { events: { started: () => undefined, delta: (t) => deltas.push(t) } },
    );
    expect(deltas).toEqual(['Half an ', 'answer']);
    expect(outcome).toMatchObject({
      status: 'failed',
      content: 'Half an answer',
      error: { code: 'model_unavailable' },
    });
    const { messages } = await onlyConversation();
    expect(messages[1]).toMatchObject({ status: 'failed', content: 'Half an answer', errorCode: 'model_unavailable' });
  });

  it('turns any error the port throws into a model_unavailable failure, not only model errors', async () => {
    llm.steps.push(() => Promise.reject(new TypeError('socket hang up')));
    const error = (await chat.run(alice, { ask: { message: 'x' } }).catch((e: unknown) => e)) as ChatTurnFailedError;
    expect(error).toBeInstanceOf(ChatTurnFailedError);
    expect(error.reason).toBe('model_unavailable');
    expect(error.message).toContain('socket hang up');
  });

  it('refuses a second turn while a reply is being generated, and stores nothing for it', async () => {
    const held = heldStep();
    llm.steps.push(held.step);
    const first = chat.run(alice, { ask: { message: 'first' } });
    await until(() => llm.calls.length === 1);
    const { conversation } = await onlyConversation();
    await expect(
      chat.run(alice, { ask: { message: 'second', conversationId: conversation.id } }),
    ).rejects.toBeInstanceOf(ConversationBusyError);
    await expect(chat.run(alice, { regenerate: { conversationId: conversation.id } })).rejects.toBeInstanceOf(
      ConversationBusyError,
    );
    held.release('done');
    expect((await first).reply).toBe('done');
    const { messages } = await onlyConversation();
    expect(messages.map((m) => m.content)).toEqual(['first', 'done']);
    await chat.run(alice, { ask: { message: 'now it is free', conversationId: conversation.id } });
  });

  it('cancels a reply in progress: partial text kept, status cancelled', async () => {
    const held = heldStep();
    llm.steps.push(held.step);
    const turn = chat.run(
      alice,
      { ask: { message: 'long story' } },
      { events: { started: () => undefined, delta: () => undefined } },
    );
    await until(() => llm.calls.length === 1);
    const { messages } = await onlyConversation();
    await new Promise((r) => setTimeout(r, 40)); // let a progress tick save the partial text
    const cancelled = await chat.cancel(alice, messages[1].conversationId, messages[1].id);
    expect(cancelled).toMatchObject({ status: 'cancelled', content: 'partial ' });
    expect(await turn).toMatchObject({ status: 'cancelled', content: 'partial ' });
  });

  /** A model that goes on after its call is aborted: it never settles, and keeps writing until told by the test. */
  function deafStep(pieces: number): { step: Step; later: { more: () => void } } {
    const later = { more: () => undefined as void };
    const step: Step = (_req, onDelta) => {
      for (let i = 0; i < pieces; i++) onDelta('x'.repeat(1000));
      later.more = () => onDelta('after the stop');
      return new Promise(() => undefined);
    };
    return { step, later };
  }

  it('ends a reply cut at MAX_REPLY_CHARS even when the model call ignores the abort and never settles', async () => {
    const deaf = deafStep(150);
    llm.steps.push(deaf.step);
    const outcome = await chat.run(
      alice,
      { ask: { message: 'write forever' } },
      { events: { started: () => undefined, delta: () => undefined } },
    );
    expect(outcome).toMatchObject({ status: 'truncated', error: { code: 'reply_too_long' } });
    expect(outcome.content).toHaveLength(100_000);
    deaf.later.more();
    const { messages } = await onlyConversation();
    expect(messages[1]).toMatchObject({ status: 'truncated', leaseUntil: null });
    expect(messages[1].content).toHaveLength(100_000);
    // The thread is free for the next turn.
    await chat.run(alice, { ask: { message: 'next', conversationId: messages[1].conversationId } });
  });

  it('ends a cancelled reply even when the model call ignores the abort, and keeps nothing written after the stop', async () => {
    const deaf = deafStep(1);
    llm.steps.push(deaf.step);
    const turn = chat.run(
      alice,
      { ask: { message: 'long story' } },
      { events: { started: () => undefined, delta: () => undefined } },
    );
    await until(() => llm.calls.length === 1);
    const { messages } = await onlyConversation();
    await chat.cancel(alice, messages[1].conversationId, messages[1].id);
    await until(async () => (await onlyConversation()).messages[1].status !== 'streaming');
    deaf.later.more();
    expect(await turn).toMatchObject({ status: 'cancelled', content: 'x'.repeat(1000) });
  });

  it('regenerates the last answer as a sibling reply, keeping the replaced one readable', async () => {
    llm.steps.push(async () => ({ content: 'first answer', model: 'scripted', usage: null, toolCalls: [] }));
    const first = await chat.run(alice, { ask: { message: 'question' } });
    llm.steps.push(async () => ({ content: 'second answer', model: 'scripted', usage: null, toolCalls: [] }));
    const again = await chat.run(alice, { regenerate: { conversationId: first.conversationId } });
    expect(again).toMatchObject({ userMessageId: first.userMessageId, reply: 'second answer', created: false });
    expect(again.messageId).not.toBe(first.messageId);
    expect(llm.calls.at(-1)!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'question' },
    ]);
    // The active path holds the question and the new answer; the earlier one is its sibling, shown in versions.
    const { messages } = await onlyConversation();
    expect(messages.map((m) => m.content)).toEqual(['question', 'second answer']);
    expect(messages[1]).toMatchObject({
      parentId: first.userMessageId,
      siblingIds: [first.messageId, again.messageId],
    });
    expect(messages[1].otherAnswers).toEqual([
      expect.objectContaining({ content: 'first answer', status: 'complete' }),
    ]);
  });

  it('closes a reply whose generator died (lease expired) and lets the next turn through', async () => {
    const { conversationId, messageId } = await chat.run(alice, { ask: { message: 'q1' } });
    const ds = module.get(DataSource);
    await ds.query(`UPDATE messages SET status = 'streaming', lease_until = '2000-01-01 00:00:00.000' WHERE id = ?`, [
      messageId,
    ]);
    await chat.run(alice, { ask: { message: 'q2', conversationId } });
    const { messages } = await conversations.getWithMessages(alice, conversationId);
    expect(messages.map((m) => m.status)).toEqual(['complete', 'failed', 'complete', 'complete']);
    expect(messages[1].errorMessage).toMatch(/interrupted/);
  });

  it("refuses another actor's conversation and stores nothing in it", async () => {
    const { conversationId } = await chat.run(alice, { ask: { message: 'mine' } });
    await expect(chat.run(bob, { ask: { message: 'intrude', conversationId } })).rejects.toBeInstanceOf(
      ForbiddenConversationError,
    );
    await expect(chat.run(bob, { regenerate: { conversationId } })).rejects.toBeInstanceOf(ForbiddenConversationError);
    await expect(conversations.getWithMessages(bob, conversationId)).rejects.toBeInstanceOf(ForbiddenConversationError);
    await expect(conversations.delete(bob, conversationId)).rejects.toBeInstanceOf(ForbiddenConversationError);
    expect((await conversations.getWithMessages(alice, conversationId)).messages).toHaveLength(2);
    expect(llm.calls).toHaveLength(1);
  });

  it('raises ConversationNotFoundError for an unknown id', async () => {
    await expect(
      chat.run(alice, { ask: { message: 'x', conversationId: '00000000-0000-4000-8000-000000000000' } }),
    ).rejects.toBeInstanceOf(ConversationNotFoundError);
  });

  it('refuses blank and over-long messages before storing anything', async () => {
    await expect(chat.run(alice, { ask: { message: '   ' } })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(chat.run(alice, { ask: { message: 'x'.repeat(51) } })).rejects.toThrow(/limit is 50/);
    expect((await conversations.list(alice, 10)).items).toEqual([]);
    expect(llm.calls).toHaveLength(0);
  });

  it('waits for turns in flight on shutdown', async () => {
    const held = heldStep();
    llm.steps.push(held.step);
    const turn = chat.run(alice, { ask: { message: 'slow' } });
    await until(() => llm.calls.length === 1);
    let shutdownDone = false;
    const shutdown = chat.beforeApplicationShutdown().then(() => (shutdownDone = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(shutdownDone).toBe(false);
    held.release('late');
    await shutdown;
    expect((await turn).reply).toBe('late');
  });
});
