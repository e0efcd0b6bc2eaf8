import { keysOfHead } from './json-head-keys.js';

describe('keysOfHead', () => {
  it('reads the keys of the first two levels as far as the text goes, whatever is cut', () => {
    const full = JSON.stringify({
      id: 'c1',
      user_id: 'u',
      title: 'a "quoted": title',
      chat: { id: '', models: ['m'], params: {}, history: { messages: { m1: { content: 'x'.repeat(50) } } } },
    });
    expect(keysOfHead(full.slice(0, 120))).toEqual({
      id: true,
      user_id: true,
      title: true,
      chat: { id: true, models: true, params: true, history: true },
    });
    expect(keysOfHead(full)).toEqual({
      id: true,
      user_id: true,
      title: true,
      chat: { id: true, models: true, params: true, history: true },
    });
    expect(
      keysOfHead('  {"title": "t", "create_time": 1.5, "mapping": {"root": {"id": "root", "children": ["a"]'),
    ).toEqual({ title: true, create_time: true, mapping: { root: true } });
    expect(keysOfHead('{"a": ["not", "keys", {"b": 1}], "c": "x:\\"y\\"", "d')).toEqual({ a: true, c: true });
  });

  it('answers null for anything but an object', () => {
    expect(keysOfHead('["a"]')).toBeNull();
    expect(keysOfHead('"text"')).toBeNull();
    expect(keysOfHead('')).toBeNull();
  });
});
