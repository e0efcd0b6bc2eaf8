import { cutText } from './cut-text.js';

describe('cutText', () => {
  it('keeps text within the limit unchanged', () => {
    expect(cutText('hello', 5, 'x')).toEqual({ text: 'hello', cut: 0 });
  });

  it('cuts longer text with a note of how much is left out and how to read it', () => {
    expect(cutText('abcdefgh', 3, 'read it in the app')).toEqual({
      text: 'abc\n[cut: 5 more characters; read it in the app]',
      cut: 5,
    });
  });

  it('never splits a surrogate pair', () => {
    const { text, cut } = cutText('a😀b', 2, 'x');
    expect(text.startsWith('a\n')).toBe(true);
    expect(cut).toBe(3);
  });
});
