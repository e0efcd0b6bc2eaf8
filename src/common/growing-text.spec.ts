import { GrowingText } from './growing-text.js';

describe('GrowingText', () => {
  it('is the pieces in order, whatever their number', () => {
    const text = new GrowingText();
    const pieces = Array.from({ length: 1000 }, (_, i) => `piece ${i}, `);
    pieces.forEach((p, i) => {
      text.append(p);
      if (i % 97 === 0) expect(text.toString()).toBe(pieces.slice(0, i + 1).join(''));
    });
    expect(text.toString()).toBe(pieces.join(''));
    expect(text.length).toBe(pieces.join('').length);
  });

  it('is empty until something is appended, and ignores empty pieces', () => {
    const text = new GrowingText();
    expect(text.toString()).toBe('');
    text.append('');
    expect(text.length).toBe(0);
    text.append('a\u{1F600}');
    expect(text.toString()).toBe('a\u{1F600}');
    expect(text.length).toBe(3);
  });
});
