import { countTokensBounded, MAX_PIECE_CHARS, MAX_RUN_CHARS, type TokenCountingEncoder } from './bounded-count.js';

/** The real o200k_base encoder, with the longest run without white space it was handed. */
async function watchedEncoder(): Promise<
  TokenCountingEncoder & { longestRun: number; longestCall: number; calls: string[] }
> {
  const real = await import('gpt-tokenizer/encoding/o200k_base');
  const watched = {
    longestRun: 0,
    longestCall: 0,
    calls: [] as string[],
    countTokens(text: string) {
      watched.calls.push(text);
      watched.longestCall = Math.max(watched.longestCall, text.length);
      for (const run of text.split(/\s/)) watched.longestRun = Math.max(watched.longestRun, run.length);
      return real.countTokens(text);
    },
  };
  return watched;
}

describe('countTokensBounded', () => {
  it('counts ordinary text exactly as one call does', async () => {
    const encoder = await watchedEncoder();
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    expect(text.length).toBeLessThan(MAX_PIECE_CHARS);
    expect(countTokensBounded(encoder, text)).toBe(encoder.countTokens(text));
  });

  it('never hands the encoder a run without white space longer than MAX_RUN_CHARS, nor a piece much longer than MAX_PIECE_CHARS', async () => {
    const encoder = await watchedEncoder();
    for (const text of [
      'a'.repeat(40_000),
      '漢'.repeat(32_000),
      '😀'.repeat(10_000),
      `${'word '.repeat(5_000)}${'x'.repeat(5_000)}`,
    ]) {
      encoder.longestRun = encoder.longestCall = 0;
      countTokensBounded(encoder, text);
      expect(encoder.longestRun).toBeLessThanOrEqual(MAX_RUN_CHARS);
      expect(encoder.longestCall).toBeLessThanOrEqual(MAX_PIECE_CHARS + MAX_RUN_CHARS);
    }
  });

  it('keeps the count within 1 % of a single call on long texts, and never splits a surrogate pair', async () => {
    const encoder = await watchedEncoder();
    for (const text of ['lorem ipsum dolor sit amet '.repeat(2_000), 'a'.repeat(20_000), '漢字'.repeat(1_000)]) {
      const exact = encoder.countTokens(text);
      expect(Math.abs(countTokensBounded(encoder, text) - exact) / exact).toBeLessThan(0.01);
    }
    encoder.calls.length = 0;
    countTokensBounded(encoder, '😀'.repeat(1_000));
    // A lone surrogate at either end of a piece would mean a pair was cut.
    for (const piece of encoder.calls) expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(piece)).toBe(false);
  });
});
