import type { Message, Update, UserFromGetMe } from 'grammy/types';
import { actorOfChat, promptText, routeUpdate } from './routing.js';

const ME = { id: 777, is_bot: true, first_name: 'Memory', username: 'memory_bot' } as UserFromGetMe;
const ADA = { id: 42, is_bot: false, first_name: 'Ada' };
const GROUP = { id: -100123, type: 'supergroup' as const, title: 'Team' };
const PRIVATE = { id: 42, type: 'private' as const, first_name: 'Ada' };

function message(text: string, fields: Partial<Message> = {}): Message {
  const entities = [];
  const command = /^\/\S+/.exec(text);
  if (command) entities.push({ type: 'bot_command' as const, offset: 0, length: command[0].length });
  const mention = /@\w+/.exec(text.slice(command ? command[0].length : 0));
  if (mention)
    entities.push({
      type: 'mention' as const,
      offset: text.indexOf(mention[0], command ? command[0].length : 0),
      length: mention[0].length,
    });
  return { message_id: 1, date: 0, chat: GROUP, from: ADA, text, entities, ...fields } as Message;
}

const route = (m: Message, allowed: number[] | null = null) =>
  routeUpdate({ update_id: 1, message: m } as Update, ME, allowed ? new Set(allowed) : null);

describe('routeUpdate', () => {
  it('takes every private message', () => {
    expect(route(message('hi', { chat: PRIVATE }))).toEqual({ kind: 'handle', chatId: 42 });
  });

  it('takes a group message only when it addresses the bot', () => {
    expect(route(message('hi all'))).toEqual({ kind: 'ignore' });
    expect(route(message('hi @memory_bot'))).toEqual({ kind: 'handle', chatId: GROUP.id });
    expect(route(message('hi @Memory_Bot'))).toEqual({ kind: 'handle', chatId: GROUP.id });
    expect(route(message('hi @someone_else'))).toEqual({ kind: 'ignore' });
    expect(
      route(message('sure', { reply_to_message: { from: ME } as unknown as Message['reply_to_message'] })),
    ).toMatchObject({ kind: 'handle' });
    expect(
      route(message('sure', { reply_to_message: { from: ADA } as unknown as Message['reply_to_message'] })),
    ).toEqual({ kind: 'ignore' });
    const textMention = message('hey you', { entities: [{ type: 'text_mention', offset: 4, length: 3, user: ME }] });
    expect(route(textMention)).toMatchObject({ kind: 'handle' });
  });

  it('takes commands in a group unless they name another bot', () => {
    expect(route(message('/help'))).toMatchObject({ kind: 'handle' });
    expect(route(message('/help@memory_bot'))).toMatchObject({ kind: 'handle' });
    expect(route(message('/help@other_bot'))).toEqual({ kind: 'ignore' });
  });

  it('refuses users outside the allowed list, only when they address the bot', () => {
    expect(route(message('hi', { chat: PRIVATE }), [7])).toEqual({ kind: 'refuse', chatId: 42, userId: 42 });
    expect(route(message('hi all'), [7])).toEqual({ kind: 'ignore' });
    expect(route(message('hi', { chat: PRIVATE }), [42])).toMatchObject({ kind: 'handle' });
  });

  it('ignores bots, edits and updates without a sender', () => {
    expect(route(message('hi', { chat: PRIVATE, from: { ...ADA, is_bot: true } }))).toEqual({ kind: 'ignore' });
    expect(routeUpdate({ update_id: 1, edited_message: message('x', { chat: PRIVATE }) } as Update, ME, null)).toEqual({
      kind: 'ignore',
    });
    expect(route(message('hi', { chat: PRIVATE, from: undefined }))).toEqual({ kind: 'ignore' });
  });

  it('routes button presses to their chat, refusing outsiders with the query id', () => {
    const query = {
      id: 'q1',
      from: ADA,
      chat_instance: 'c',
      data: 'keep:42',
      message: message('x', { chat: PRIVATE }),
    };
    expect(routeUpdate({ update_id: 1, callback_query: query } as Update, ME, null)).toEqual({
      kind: 'handle',
      chatId: 42,
    });
    expect(routeUpdate({ update_id: 1, callback_query: query } as Update, ME, new Set([7]))).toEqual({
      kind: 'refuse',
      chatId: 42,
      userId: 42,
      callbackQueryId: 'q1',
    });
  });
});

describe('actorOfChat and promptText', () => {
  it('gives a private chat to its user and a group chat to the group', () => {
    expect(actorOfChat(PRIVATE, 42)).toEqual({ id: 'telegram:42' });
    expect(actorOfChat(GROUP, 42)).toEqual({ id: 'telegram:group:-100123' });
  });

  it('strips the mention and signs group messages with the sender', () => {
    expect(promptText(message('hello @memory_bot how are you?'), ME)).toBe('Ada: hello how are you?');
    expect(promptText(message('@memory_bot'), ME)).toBe('');
    expect(promptText(message('hello @memory_bot', { chat: PRIVATE }), ME)).toBe('hello @memory_bot');
  });
});
