import type { Message } from '../../conversations/message.entity.js';
import { stateAfterTools, toUiMessage, toUiMessages } from './ui-messages.js';

const message = (changes: Partial<Message>): Message =>
  Object.assign(
    {
      id: 'm1',
      conversationId: 'c1',
      thread: 'main',
      role: 'assistant',
      content: 'Hello',
      status: 'complete',
      model: 'gpt',
      promptTokens: 3,
      completionTokens: 1,
      errorCode: null,
      errorMessage: null,
      toolCalls: null,
      functionCalls: null,
      callId: null,
      createdAt: new Date('2026-01-02T03:04:05.000Z'),
    },
    changes,
  ) as Message;

describe('toUiMessage', () => {
  it('gives a reply its id, a text part and what we know of it as metadata', () => {
    expect(toUiMessage(message({}))).toEqual({
      id: 'm1',
      role: 'assistant',
      parts: [{ type: 'text', text: 'Hello', state: 'done' }],
      metadata: {
        conversationId: 'c1',
        thread: 'main',
        status: 'complete',
        createdAt: '2026-01-02T03:04:05.000Z',
        model: 'gpt',
        usage: { promptTokens: 3, completionTokens: 1 },
        error: null,
      },
    });
  });

  it('marks a reply in progress as streaming, and an empty one has no text part', () => {
    expect(toUiMessage(message({ status: 'streaming', content: 'Hel' })).parts).toEqual([
      { type: 'text', text: 'Hel', state: 'streaming' },
    ]);
    expect(toUiMessage(message({ status: 'streaming', content: '' })).parts).toEqual([]);
  });

  it('keeps user messages free of reply fields', () => {
    expect(toUiMessage(message({ role: 'user', model: null, promptTokens: null }))).toEqual({
      id: 'm1',
      role: 'user',
      parts: [{ type: 'text', text: 'Hello', state: 'done' }],
      metadata: { conversationId: 'c1', thread: 'main', status: 'complete', createdAt: '2026-01-02T03:04:05.000Z' },
    });
  });
});

describe('stateAfterTools', () => {
  it('is the state the last successful update_state call left; null when none succeeded', () => {
    const ok = (state: object) => ({
      name: 'update_state',
      arguments: '{}',
      result: JSON.stringify({ ok: true, state }),
    });
    expect(
      stateAfterTools([
        ok({ a: 1 }),
        { name: 'update_state', arguments: '{}', result: '{"ok":false,"error":"no"}' },
        ok({ a: 2 }),
      ]),
    ).toEqual({ a: 2 });
    expect(
      stateAfterTools([
        { name: 'update_state', arguments: '', result: '{"ok":false}' },
        { name: 'other', arguments: '', result: 'not json' },
      ]),
    ).toBeNull();
    expect(stateAfterTools(null)).toBeNull();
  });
});

describe('toUiMessages', () => {
  it("makes a reply that called the client's tools, their outputs and the reply that went on one UIMessage, under the first id", () => {
    const call = { callId: 'call-1', name: 'getWeather', arguments: '{"city":"Oslo"}' };
    const messages = [
      message({ id: 'q', role: 'user', content: 'Weather?' }),
      message({ id: 'a1', content: '', functionCalls: [call] }),
      message({ id: 't1', role: 'tool', content: '{"forecast":"cold"}', callId: 'call-1' }),
      message({ id: 'a2', content: 'Cold.', model: 'gpt-2' }),
    ];
    const ui = toUiMessages(messages, new Map([['q', 'client-q']]));
    expect(ui.map((m) => m.id)).toEqual(['client-q', 'a1']);
    expect(ui[1].parts).toEqual([
      {
        type: 'tool-getWeather',
        toolCallId: 'call-1',
        state: 'output-available',
        input: { city: 'Oslo' },
        output: { forecast: 'cold' },
      },
      { type: 'step-start' },
      { type: 'text', text: 'Cold.', state: 'done' },
    ]);
    expect(ui[1].metadata).toMatchObject({ model: 'gpt-2' });
    // Before the output comes, the call waits.
    expect(toUiMessages(messages.slice(0, 2), new Map())[1].parts).toEqual([
      { type: 'tool-getWeather', toolCallId: 'call-1', state: 'input-available', input: { city: 'Oslo' } },
    ]);
  });

  it("shows the agent's tools a reply ran as tool parts with their output", () => {
    const [ui] = toUiMessages(
      [message({ id: 'a', toolCalls: [{ name: 'remember', arguments: 'not json', result: '{"ok":true}' }] })],
      new Map(),
    );
    expect(ui.parts[0]).toEqual({
      type: 'tool-remember',
      toolCallId: 'a-tool-0',
      state: 'output-available',
      input: 'not json',
      output: { ok: true },
    });
  });
});
