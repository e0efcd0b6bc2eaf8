import { FRAME_CHARS, HeldText, splitPoint } from './held-text.js';

function drain(held: HeldText): string[] {
  const frames: string[] = [];
  while (!held.empty) frames.push(held.take());
  return frames;
}

describe('HeldText', () => {
  it('gives back the pieces in order, joined into frames of at most FRAME_CHARS', () => {
    const pieces = Array.from({ length: 5000 }, (_, i) => `${i},`);
    const held = new HeldText(pieces[0]);
    pieces.slice(1).forEach((p) => held.push(p));
    const frames = drain(held);
    expect(frames.join('')).toBe(pieces.join(''));
    expect(frames.every((f) => f.length > 0 && f.length <= FRAME_CHARS)).toBe(true);
    expect(frames.length).toBe(Math.ceil(pieces.join('').length / FRAME_CHARS));
  });

  it('cuts a piece longer than a frame, never between the halves of a surrogate pair', () => {
    // 'a' then emoji (two code units each): every frame boundary falls inside a pair unless moved.
    const text = `a${'😀'.repeat(FRAME_CHARS)}`;
    const frames = drain(new HeldText(text));
    expect(frames.join('')).toBe(text);
    for (const frame of frames) {
      expect(frame.length).toBeLessThanOrEqual(FRAME_CHARS);
      // Round-trips through UTF-8 unchanged: no lone surrogate at either end.
      expect(Buffer.from(frame, 'utf8').toString('utf8')).toBe(frame);
    }
  });
});

describe('splitPoint', () => {
  it('moves a cut out of a surrogate pair and stops at the end', () => {
    expect(splitPoint('a😀b', 2)).toBe(1);
    expect(splitPoint('a😀b', 3)).toBe(3);
    expect(splitPoint('abc', 10)).toBe(3);
  });
});
