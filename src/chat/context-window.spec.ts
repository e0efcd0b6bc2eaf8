import { buildContext } from './context-window.js';

const turns = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `m${i + 1}` }));

describe('buildContext', () => {
  it('puts system prompts first, then history in order, then the new message', () => {
    const context = buildContext({ systemPrompts: ['be brief'], history: turns(2), window: 20, newMessage: 'now' });
    expect(context).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'm1' },
      { role: 'assistant', content: 'm2' },
      { role: 'user', content: 'now' },
    ]);
  });

  it('keeps only the last `window` messages of history', () => {
    const context = buildContext({ systemPrompts: [], history: turns(30), window: 20, newMessage: 'now' });
    expect(context).toHaveLength(21);
    expect(context[0].content).toBe('m11');
    expect(context[19].content).toBe('m30');
  });

  it('skips blank system prompts, empty contents and non-dialogue roles', () => {
    const history = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: '' },
      { role: 'system', content: 'internal' },
      { role: 'tool', content: '{}' },
      { role: 'user', content: 'b' },
    ];
    const context = buildContext({ systemPrompts: [undefined, '  '], history, window: 20, newMessage: 'c' });
    expect(context.map((m) => m.content)).toEqual(['a', 'b', 'c']);
  });

  it('sends only the new message when the window is 0', () => {
    expect(buildContext({ systemPrompts: [], history: turns(4), window: 0, newMessage: 'x' })).toEqual([
      { role: 'user', content: 'x' },
    ]);
  });
});
