import { BadRequestException } from '@nestjs/common';
import { clientToolsOf, questionOf, toolAnswersOf, toTurnRequest } from './ui-chat-request.js';
import type { UiChatRequestDto } from './ui-chat.dto.js';

const user = (...parts: unknown[]) => ({ id: 'm', role: 'user', parts });

describe('questionOf', () => {
  it('reads the text of the last message only, from messages or message', () => {
    const messages = [
      user({ type: 'text', text: 'ignored' }),
      { id: 'a', role: 'assistant', parts: [] },
      user({ type: 'text', text: 'one' }, { type: 'text', text: 'two' }),
    ];
    expect(questionOf({ id: 'c', messages } as UiChatRequestDto)).toBe('one\ntwo');
    expect(questionOf({ id: 'c', message: user({ type: 'text', text: 'alone' }) } as UiChatRequestDto)).toBe('alone');
    // `message` wins over `messages` when both come.
    expect(questionOf({ id: 'c', messages, message: user({ type: 'text', text: 'this' }) } as UiChatRequestDto)).toBe(
      'this',
    );
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
    const body = {
      id: 'chat-1',
      message: user({ type: 'text', text: 'hi' }),
      thread: 'notes',
      options: { temperature: 0.5 },
    } as UiChatRequestDto;
    expect(toTurnRequest(body, 'c0ffee00-0000-4000-8000-000000000000')).toMatchObject({
      message: 'hi',
      conversationId: 'c0ffee00-0000-4000-8000-000000000000',
      thread: 'notes',
      options: { temperature: 0.5 },
    });
    expect(toTurnRequest(body, 'c0ffee00-0000-4000-8000-000000000000')).not.toHaveProperty('alias');
    expect(toTurnRequest(body, null)).toMatchObject({ message: 'hi', alias: 'chat-1' });
    expect(toTurnRequest(body, null)).not.toHaveProperty('conversationId');
  });
});

describe('clientToolsOf and toolAnswersOf', () => {
  it('offers the declared tools to the model, refusing what it cannot send', () => {
    const schema = { type: 'object', properties: {} };
    expect(
      clientToolsOf({
        id: 'c',
        tools: { getWeather: { description: 'W', inputSchema: schema } },
      } as unknown as UiChatRequestDto),
    ).toEqual([{ name: 'getWeather', description: 'W', parameters: schema }]);
    for (const tools of [
      { 'a b': { inputSchema: schema } },
      { f: {} },
      { f: { inputSchema: schema, description: 7 } },
      { f: null },
    ]) {
      expect(() => clientToolsOf({ id: 'c', tools } as unknown as UiChatRequestDto)).toThrow(BadRequestException);
    }
  });

  it("turns the outputs of the pending calls into tool messages, in the reply's order; anything else is refused", () => {
    const pending = [
      { callId: 'c1', name: 'f', arguments: '{}' },
      { callId: 'c2', name: 'g', arguments: '{}' },
    ];
    const part = (toolCallId: string, extra: object) => ({ type: 'tool-f', toolCallId, input: {}, ...extra });
    const message = {
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        part('c2', { state: 'output-error', errorText: 'no' }),
        part('c1', { state: 'output-available', output: { a: 1 } }),
      ],
    };
    expect(toolAnswersOf(message, pending)).toEqual([
      { call: pending[0], output: '{"a":1}' },
      { call: pending[1], output: '{"error":"no"}' },
    ]);
    // A call of the agent's tool waits for an approval, not an output.
    const remember = { callId: 'r', name: 'remember', arguments: '{}' };
    const approved = {
      type: 'tool-remember',
      toolCallId: 'r',
      input: {},
      state: 'approval-responded',
      approval: { id: 'r-approval', approved: false, reason: 'no' },
    };
    expect(toolAnswersOf({ parts: [approved] }, [remember])).toEqual([
      { call: remember, approval: { approved: false, reason: 'no' } },
    ]);
    expect(() =>
      toolAnswersOf({ parts: [{ ...approved, state: 'output-available', output: 'forged' }] }, [remember]),
    ).toThrow(BadRequestException);
    expect(() => toolAnswersOf(message, [])).toThrow(BadRequestException);
    expect(() => toolAnswersOf(message, pending.slice(0, 1))).toThrow(BadRequestException);
    expect(() => toolAnswersOf({ parts: [part('c1', { state: 'input-available' })] }, pending.slice(0, 1))).toThrow(
      BadRequestException,
    );
  });
});
