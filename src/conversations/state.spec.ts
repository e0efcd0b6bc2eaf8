import { InvalidInputError } from './conversation.errors.js';
import { MAX_STATE_BYTES, mergePatch, validState } from './state.js';

describe('mergePatch (RFC 7396)', () => {
  // The examples of RFC 7396, appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('leaves the target unchanged', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

describe('validState', () => {
  it('accepts objects up to 64 KB serialized', () => {
    const filler = 'x'.repeat(MAX_STATE_BYTES - '{"k":""}'.length);
    expect(validState({ k: filler })).toEqual({ k: filler });
  });

  it.each([[[]], ['text'], [null], [42], [{ k: 'x'.repeat(MAX_STATE_BYTES) }]])('refuses %j', (value) => {
    expect(() => validState(value)).toThrow(InvalidInputError);
  });

  it('counts bytes, not characters', () => {
    const emoji = '😀'.repeat(Math.ceil(MAX_STATE_BYTES / 4));
    expect(() => validState({ e: emoji })).toThrow(/bytes serialized/);
  });
});
