import { ReplyBounds } from './reply-bounds.js';

describe('ReplyBounds', () => {
  const bounds = (maxReplyChars: number, onCut: () => void = () => undefined) =>
    new ReplyBounds({ maxReplyChars, maxReplyMs: 60_000 }, onCut);

  it('admits text up to the limit, then cuts once and admits nothing more', () => {
    let cuts = 0;
    const b = bounds(10, () => cuts++);
    expect(b.admit(0, 'hello ')).toBe('hello ');
    expect(b.reason).toBeNull();
    expect(b.admit(6, 'world!')).toBe('worl');
    expect(b.reason).toMatchObject({
      code: 'reply_too_long',
      message: 'The reply was cut at MAX_REPLY_CHARS (10 characters)',
    });
    expect(b.admit(10, 'more')).toBe('');
    expect(cuts).toBe(1);
    b.end();
  });

  it('never splits a surrogate pair at the cut', () => {
    const b = bounds(5);
    // "abcd" then an emoji (two code units) that would straddle the limit.
    expect(b.admit(0, 'abcd😀')).toBe('abcd');
    b.end();
  });

  it('cuts on tool call arguments longer than the limit', () => {
    const b = bounds(10);
    expect(b.admitsArguments('{"a":1}')).toBe(true);
    expect(b.admitsArguments('x'.repeat(11))).toBe(false);
    expect(b.reason?.code).toBe('reply_too_long');
    b.end();
  });

  it('cuts at LLM_MAX_REPLY_MS, and not once ended', async () => {
    let cuts = 0;
    const b = new ReplyBounds({ maxReplyChars: 10, maxReplyMs: 20 }, () => cuts++);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(b.reason).toMatchObject({ code: 'reply_timeout' });
    expect(cuts).toBe(1);
    const ended = new ReplyBounds({ maxReplyChars: 10, maxReplyMs: 20 }, () => cuts++);
    ended.end();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ended.reason).toBeNull();
    expect(cuts).toBe(1);
  });
});
