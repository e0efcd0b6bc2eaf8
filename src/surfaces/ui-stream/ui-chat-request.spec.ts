import { BadRequestException } from '@nestjs/common';
import { questionOf, toTurnRequest } from './ui-chat-request.js';
import type { UiChatRequestDto } from './ui-chat.dto.js';

const user = (...parts: unknown[]) => ({ id: 'm', role: 'user', parts });

describe('questionOf', () => {
  it('reads the text of the last message only, from messages or message', () => {
    const messages = [user({ type: 'text', text: 'ignored' }), { id: 'a', role: 'assistant', parts: [] }, user({ type: 'text', text: 'one' }, { type: 'text', text: 'two' })];
    expect(questionOf({ id: 'c', messages } as UiChatRequestDto)).toBe('one\ntwo');
    expect(questionOf({ id: 'c', message: user({ type: 'text', text: 'alone' }) } as UiChatRequestDto)).toBe('alone');
    // `message` wins over `messages` when both come.
    expect(questionOf({ id: 'c', messages, message: user({ type: 'text', text: 'this' }) } as UiChatRequestDto)).toBe('this');
  });

  it('refuses what is not a user message of text parts, instead of dropping parts', () => {
    for (const body of [
      { id: 'c' },
      { id: 'c', messages: [] },
      { id: 'c', message: { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'x' }] } },
      { id: 'c', message: { id: 'u', role: 'user' } },
      { id: 'c', message: user({ type: 'file', url: 'data:,', mediaType: 'text/plain' }) },
      { id: 'c', message: user({ type: 'text', text: 'x' }, null) },
      { id: 'c', message: user({ type: 'text', text: 42 }) },
    ]) {
      expect(() => questionOf(body as unknown as UiChatRequestDto)).toThrow(BadRequestException);
    }
  });
});

describe('toTurnRequest', () => {
  it('continues the conversation found for the chat id, or names a new one after it', () => {
    const body = { id: 'chat-1', message: user({ type: 'text', text: 'hi' }), thread: 'notes', options: { temperature: 0.5 } } as UiChatRequestDto;
    expect(toTurnRequest(body, 'c0ffee00-0000-4000-8000-000000000000')).toMatchObject({ message: 'hi', conversationId: 'c0ffee00-0000-4000-8000-000000000000', thread: 'notes', options: { temperature: 0.5 } });
    expect(toTurnRequest(body, 'c0ffee00-0000-4000-8000-000000000000')).not.toHaveProperty('alias');
    expect(toTurnRequest(body, null)).toMatchObject({ message: 'hi', alias: 'chat-1' });
    expect(toTurnRequest(body, null)).not.toHaveProperty('conversationId');
  });
});
