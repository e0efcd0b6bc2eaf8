import { Test, type TestingModule } from '@nestjs/testing';
import { apiActor } from '../actor-auth/actor.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import {
  ConversationNotFoundError,
  ForbiddenConversationError,
  InvalidInputError,
} from '../conversations/conversation.errors.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { DatabaseModule } from '../database/database.module.js';
import { ModelTimeoutError } from '../llm/llm.errors.js';
import { LLM_PORT, type Completion, type CompletionRequest, type LlmPort } from '../llm/llm.port.js';
import { ChatTurnFailedError } from './chat.errors.js';
import { ChatService } from './chat.service.js';

/** A scripted model: each call runs the next step, or answers "ok". */
class ScriptedLlm implements LlmPort {
  readonly defaultModel = 'scripted';
  readonly calls: CompletionRequest[] = [];
  readonly steps: Array<(req: CompletionRequest) => Promise<Completion>> = [];

  async complete(request: CompletionRequest): Promise<Completion> {
    this.calls.push(request);
    const step = this.steps.shift();
    return step ? step(request) : { content: 'ok', model: 'scripted', usage: { promptTokens: 3, completionTokens: 1 } };
  }
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
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', HISTORY_WINDOW: '4', SYSTEM_PROMPT: 'sys', MAX_MESSAGE_CHARS: '50' });
    module = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(config.database), ConversationsModule],
      providers: [ChatService, { provide: LLM_PORT, useValue: llm }],
    }).compile();
    await module.init();
    chat = module.get(ChatService);
    conversations = module.get(ConversationsService);
  });
  afterEach(() => module.close());

  it('commits the user message before the model is called', async () => {
    llm.steps.push(async () => {
      const page = await conversations.list(alice, 10);
      const stored = await conversations.getWithMessages(alice, page.items[0].id);
      expect(stored.messages.map((m) => [m.role, m.content])).toEqual([['user', 'hello']]);
      return { content: 'hi!', model: 'scripted', usage: null };
    });
    const result = await chat.send(alice, { message: 'hello' });
    expect(result).toMatchObject({ reply: 'hi!', created: true, title: 'hello' });
    expect(llm.calls).toHaveLength(1);
  });

  it('replays the system prompt and the last HISTORY_WINDOW messages', async () => {
    const { conversationId } = await chat.send(alice, { message: 'q1' });
    for (const q of ['q2', 'q3', 'q4']) await chat.send(alice, { message: q, conversationId });
    expect(llm.calls.at(-1)!.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'q3' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'q4' },
    ]);
  });

  it('records a failed reply and raises ChatTurnFailedError with the ids', async () => {
    llm.steps.push(() => Promise.reject(new ModelTimeoutError(1000)));
    const error = await chat.send(alice, { message: 'will fail' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatTurnFailedError);
    const failed = error as ChatTurnFailedError;
    expect(failed.cause).toBeInstanceOf(ModelTimeoutError);
    const stored = await conversations.getWithMessages(alice, failed.conversationId);
    expect(stored.messages.map((m) => [m.id === failed.userMessageId, m.role, m.status])).toEqual([
      [true, 'user', 'complete'],
      [false, 'assistant', 'failed'],
    ]);
  });

  it('wraps any error the port throws, not only model errors', async () => {
    llm.steps.push(() => Promise.reject(new TypeError('socket hang up')));
    const error = await chat.send(alice, { message: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatTurnFailedError);
    expect((error as ChatTurnFailedError).message).toContain('socket hang up');
  });

  it("refuses another actor's conversation and stores nothing in it", async () => {
    const { conversationId } = await chat.send(alice, { message: 'mine' });
    await expect(chat.send(bob, { message: 'intrude', conversationId })).rejects.toBeInstanceOf(ForbiddenConversationError);
    await expect(conversations.getWithMessages(bob, conversationId)).rejects.toBeInstanceOf(ForbiddenConversationError);
    await expect(conversations.delete(bob, conversationId)).rejects.toBeInstanceOf(ForbiddenConversationError);
    expect((await conversations.getWithMessages(alice, conversationId)).messages).toHaveLength(2);
    expect(llm.calls).toHaveLength(1);
  });

  it('raises ConversationNotFoundError for an unknown id', async () => {
    await expect(chat.send(alice, { message: 'x', conversationId: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(
      ConversationNotFoundError,
    );
  });

  it('refuses blank and over-long messages before storing anything', async () => {
    await expect(chat.send(alice, { message: '   ' })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(chat.send(alice, { message: 'x'.repeat(51) })).rejects.toThrow(/limit is 50/);
    expect((await conversations.list(alice, 10)).items).toEqual([]);
    expect(llm.calls).toHaveLength(0);
  });

  it('waits for turns in flight on shutdown', async () => {
    let release!: () => void;
    llm.steps.push(() => new Promise((resolve) => (release = () => resolve({ content: 'late', model: 'scripted', usage: null }))));
    const turn = chat.send(alice, { message: 'slow' });
    while (llm.calls.length === 0) await new Promise((r) => setImmediate(r));
    let shutdownDone = false;
    const shutdown = chat.beforeApplicationShutdown().then(() => (shutdownDone = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(shutdownDone).toBe(false);
    release();
    await shutdown;
    expect((await turn).reply).toBe('late');
  });
});
