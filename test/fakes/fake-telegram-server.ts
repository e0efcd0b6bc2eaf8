import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Chat, Message, MessageEntity, Update, User } from 'grammy/types';

/** One Bot API call the fake received (getUpdates excepted), with its JSON payload. */
export interface BotApiCall {
  readonly method: string;
  // Payloads differ per method; tests read the fields they expect.
  readonly body: Record<string, any>;
  /** True when the fake answered it with a scripted error. */
  readonly failed: boolean;
  /** Date.now() when it arrived. */
  readonly at: number;
  /** What the fake answered (for sendMessage: the Message, e.g. to reply to it or press its buttons). */
  readonly result?: unknown;
}

export interface ApiErrorScript {
  readonly error_code: number;
  readonly description: string;
  readonly parameters?: { retry_after?: number };
}

type PrivateUser = Pick<User, 'id' | 'first_name'> & Partial<User>;

/**
 * A Telegram Bot API server on 127.0.0.1 for tests: real HTTP, driven by the real grammY
 * client. Updates pushed with `sendText` / `pressButton` are served by long polling
 * (getUpdates with offsets, as Telegram does) or can be posted to a webhook by the test.
 * Every other call is recorded and answered like Telegram would; errors can be scripted.
 */
export class FakeTelegramServer {
  static readonly TOKEN = '123456789:TEST-fake-token_abcdefghijklmnopq';
  static readonly BOT: User = { id: 123456789, is_bot: true, first_name: 'Memory', username: 'memory_test_bot' };

  readonly calls: BotApiCall[] = [];
  /** Calls held by `holdNext`, never answered. */
  readonly heldCalls: BotApiCall[] = [];
  private pending: Update[] = [];
  private readonly chats = new Map<number, Chat>();
  private readonly sentMessages = new Map<number, Message>();
  private readonly failures = new Map<string, ApiErrorScript[]>();
  private readonly holds = new Map<string, number>();
  private readonly pollers = new Set<() => void>();
  private readonly listeners = new Set<() => void>();
  private nextUpdateId = 5000;
  private nextMessageId = 1;
  private confirmed = 0;
  private server?: Server;
  private port = 0;

  static async start(): Promise<FakeTelegramServer> {
    const fake = new FakeTelegramServer();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** For TELEGRAM_API_ROOT. */
  get apiRoot(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The variables that point the service at this fake. */
  env(): Record<string, string> {
    return { TELEGRAM_BOT_TOKEN: FakeTelegramServer.TOKEN, TELEGRAM_API_ROOT: this.apiRoot };
  }

  /** The highest offset a getUpdates call confirmed (updates below it are gone). */
  get confirmedOffset(): number {
    return this.confirmed;
  }

  /** A text message from `from`, in their private chat unless `chat` is given; queued for getUpdates. */
  sendText(from: PrivateUser, text: string, options: { chat?: Chat; replyTo?: Message } = {}): Update {
    const chat = options.chat ?? ({ id: from.id, type: 'private', first_name: from.first_name } as Chat);
    const message = {
      message_id: this.nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat,
      from: { is_bot: false, ...from },
      text,
      ...(entitiesOf(text).length ? { entities: entitiesOf(text) } : {}),
      ...(options.replyTo ? { reply_to_message: options.replyTo } : {}),
    } as Message;
    return this.push({ message } as Omit<Update, 'update_id'>);
  }

  /** Any message (a photo, a sticker...) from `from` in their private chat. */
  sendOther(from: PrivateUser, fields: Record<string, unknown>): Update {
    const chat = { id: from.id, type: 'private', first_name: from.first_name } as Chat;
    const message = {
      message_id: this.nextMessageId++,
      date: 0,
      chat,
      from: { is_bot: false, ...from },
      ...fields,
    } as Message;
    return this.push({ message } as Omit<Update, 'update_id'>);
  }

  /** `from` presses the inline button with `data` under a message the bot sent. */
  pressButton(from: PrivateUser, message: Message, data: string): Update {
    const query = {
      id: `cq-${this.nextUpdateId}`,
      from: { is_bot: false, ...from },
      chat_instance: 'ci',
      message,
      data,
    };
    return this.push({ callback_query: query } as Omit<Update, 'update_id'>);
  }

  /** Builds an update with the next update_id without queueing it (for webhook tests). */
  makeUpdate(fields: Omit<Update, 'update_id'>): Update {
    return { update_id: this.nextUpdateId++, ...fields } as Update;
  }

  /** Serves an update again, as Telegram does when its offset was never confirmed. */
  redeliver(update: Update): void {
    this.pending = [...this.pending, update].sort((a, b) => a.update_id - b.update_id);
    this.wake();
  }

  /** Answers the next call(s) of `method` with these errors, in order. */
  failNext(method: string, ...errors: ApiErrorScript[]): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), ...errors]);
  }

  /**
   * Never answers the next `count` calls of `method` and does not record them: the caller's
   * request hangs, as if it never reached Telegram (e.g. the service is killed meanwhile).
   */
  holdNext(method: string, count = 1): void {
    this.holds.set(method, (this.holds.get(method) ?? 0) + count);
  }

  callsTo(method: string): BotApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Texts delivered to a chat, oldest first. */
  textsTo(chatId: number): string[] {
    return this.callsTo('sendMessage')
      .filter((c) => !c.failed && c.body.chat_id === chatId)
      .map((c) => c.body.text as string);
  }

  /** Resolves with the first recorded call matching `predicate`, waiting for it if need be. */
  waitFor(predicate: (call: BotApiCall) => boolean, what = 'a matching Bot API call'): Promise<BotApiCall> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.calls.find(predicate);
        if (!found) return false;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      // A readable failure before Jest's own timeout; not a performance limit.
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`Timed out waiting for ${what}; calls: ${this.calls.map((c) => c.method).join(', ')}`));
      }, 20_000);
      if (!check()) this.listeners.add(listener);
    });
  }

  /** Waits for a delivered message to `chatId` whose text matches. */
  waitForText(chatId: number, match: string | RegExp): Promise<BotApiCall> {
    const matches = (text: string) => (typeof match === 'string' ? text === match : match.test(text));
    return this.waitFor(
      (c) => c.method === 'sendMessage' && !c.failed && c.body.chat_id === chatId && matches(String(c.body.text)),
      `a message to ${chatId} matching ${String(match)}`,
    );
  }

  reset(): void {
    this.calls.length = 0;
    this.pending = [];
    this.failures.clear();
    this.holds.clear();
  }

  async close(): Promise<void> {
    for (const wake of this.pollers) wake();
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private push(fields: Omit<Update, 'update_id'>): Update {
    const update = this.makeUpdate(fields);
    const chat = update.message?.chat;
    if (chat) this.chats.set(chat.id, chat);
    this.pending.push(update);
    this.wake();
    return update;
  }

  private wake(): void {
    for (const wake of [...this.pollers]) wake();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec((req.url ?? '').split('?')[0]);
    if (!match) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (match[1] !== FakeTelegramServer.TOKEN)
      return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = match[2];
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
    if (method === 'getUpdates') return this.getUpdates(body, res);
    const held = this.holds.get(method) ?? 0;
    if (held > 0) {
      this.holds.set(method, held - 1);
      return void this.heldCalls.push({ method, body, failed: false, at: Date.now() });
    }
    const failure = this.failures.get(method)?.shift();
    const result = failure ? undefined : this.answer(method, body);
    this.record({ method, body, failed: Boolean(failure), at: Date.now(), result });
    if (failure) return reply(res, failure.error_code, { ok: false, ...failure });
    if (result === undefined)
      return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    reply(res, 200, { ok: true, result });
  }

  private record(call: BotApiCall): void {
    this.calls.push(call);
    for (const listener of [...this.listeners]) listener();
  }

  private answer(method: string, body: Record<string, any>): unknown {
    switch (method) {
      case 'getMe':
        return {
          ...FakeTelegramServer.BOT,
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        };
      case 'sendMessage': {
        const chat = this.chats.get(body.chat_id) ?? { id: body.chat_id, type: 'private' };
        const message = {
          message_id: this.nextMessageId++,
          date: 0,
          chat,
          from: FakeTelegramServer.BOT,
          text: body.text,
        } as Message;
        if (body.reply_markup) Object.assign(message, { reply_markup: body.reply_markup });
        this.sentMessages.set(message.message_id, message);
        return message;
      }
      case 'editMessageText': {
        const message = this.sentMessages.get(body.message_id);
        return message ? { ...message, text: body.text } : true;
      }
      case 'sendChatAction':
      case 'setWebhook':
      case 'deleteWebhook':
      case 'setMyCommands':
      case 'answerCallbackQuery':
        return true;
      default:
        return undefined;
    }
  }

  /** Long polling as Telegram does it: confirm below `offset`, answer at once or when an update comes. */
  private getUpdates(body: Record<string, any>, res: ServerResponse): void {
    const offset = Number(body.offset ?? 0);
    if (offset > this.confirmed) this.confirmed = offset;
    this.pending = this.pending.filter((u) => u.update_id >= offset);
    const ready = () => this.pending.slice(0, Number(body.limit ?? 100));
    if (ready().length > 0 || !body.timeout) return reply(res, 200, { ok: true, result: ready() });
    const done = () => {
      this.pollers.delete(done);
      clearTimeout(timer);
      if (!res.writableEnded && !res.destroyed) reply(res, 200, { ok: true, result: ready() });
    };
    const timer = setTimeout(done, Number(body.timeout) * 1000);
    this.pollers.add(done);
    // The client gave up (the service stopped polling): forget this poll.
    res.on('close', () => {
      this.pollers.delete(done);
      clearTimeout(timer);
    });
  }
}

/** Entities as Telegram computes them: a leading /command and @mentions. */
function entitiesOf(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
  if (command) entities.push({ type: 'bot_command', offset: 0, length: command[0].length });
  for (const mention of text.matchAll(/(?<![\w/])@[A-Za-z0-9_]{5,}/g)) {
    entities.push({ type: 'mention', offset: mention.index, length: mention[0].length });
  }
  return entities;
}

function reply(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

/** Resolves once `condition` holds (checked every 10 ms); for state the fakes do not announce. */
export async function waitUntil(condition: () => boolean, what = 'a condition'): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    // A readable failure before Jest's own timeout; not a performance limit.
    if (waited > 20_000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
