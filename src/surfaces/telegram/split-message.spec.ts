import { splitMessage } from './split-message.js';

describe('splitMessage', () => {
  it('leaves a short text whole', () => {
    expect(splitMessage('hello')).toEqual(['hello']);
    expect(splitMessage('x'.repeat(4096))).toEqual(['x'.repeat(4096)]);
  });

  it('cuts between paragraphs first, dropping the blank line', () => {
    const text = `${'a'.repeat(3000)}\n\n${'b\n'.repeat(300)}${'c'.repeat(2000)}`;
    const parts = splitMessage(text);
    expect(parts[0]).toBe('a'.repeat(3000));
    expect(parts.join('\n\n')).toBe(text);
    expect(parts.every((p) => p.length <= 4096)).toBe(true);
  });

  it('cuts between lines when a paragraph is too long, and keeps parts long', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(90)}`);
    const parts = splitMessage(lines.join('\n'));
    expect(parts.length).toBe(3);
    expect(parts.join('\n')).toBe(lines.join('\n'));
    expect(parts.every((p) => p.length <= 4096)).toBe(true);
    expect(parts.slice(0, -1).every((p) => p.length > 2048)).toBe(true);
    expect(parts.every((p) => !p.startsWith('\n') && !p.endsWith('\n'))).toBe(true);
  });

  it('prefers a line break late in the part to a paragraph break early in it', () => {
    const text = `intro\n\n${'y'.repeat(3000)}\n${'z'.repeat(3000)}`;
    expect(splitMessage(text)).toEqual([`intro\n\n${'y'.repeat(3000)}`, 'z'.repeat(3000)]);
  });

  it('cuts between words when there is no line break, and hard-cuts one huge word', () => {
    const words = `${'w'.repeat(3000)} ${'v'.repeat(3000)}`;
    expect(splitMessage(words)).toEqual(['w'.repeat(3000), 'v'.repeat(3000)]);
    const word = 'q'.repeat(5000);
    expect(splitMessage(word)).toEqual(['q'.repeat(4096), 'q'.repeat(904)]);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(4095)}😀${'b'.repeat(10)}`;
    const parts = splitMessage(text);
    expect(parts).toEqual(['a'.repeat(4095), `😀${'b'.repeat(10)}`]);
  });

  it('leaves out blank parts, which Telegram would refuse', () => {
    expect(splitMessage(`${'a'.repeat(10)}\n\n${' '.repeat(5000)}`, 100).every((p) => p.trim() !== '')).toBe(true);
    expect(splitMessage('   ')).toEqual([]);
  });
});
