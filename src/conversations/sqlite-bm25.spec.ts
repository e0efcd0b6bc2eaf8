import type { EntityManager } from 'typeorm';
import { bm25Score, frequencies, idf, readVarint, WordCounts } from './sqlite-bm25.js';

describe('bm25 from kept counts (SQLite)', () => {
  it('reads SQLite varints: one byte, several, and the nine-byte form', () => {
    expect(readVarint(Uint8Array.from([0x0c]), 0)).toEqual({ value: 12, next: 1 });
    // 1,000,000 then 12,345,678, as FTS5's averages record stores them.
    const totals = Uint8Array.from([0xbd, 0x84, 0x40, 0x85, 0xf1, 0xc2, 0x4e]);
    const rows = readVarint(totals, 0);
    expect(rows.value).toBe(1_000_000);
    expect(readVarint(totals, rows.next).value).toBe(12_345_678);
    expect(readVarint(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), 0)).toEqual({ value: 1, next: 9 });
    expect(() => readVarint(Uint8Array.from([0x81]), 0)).toThrow();
  });

  it('counts each marked word, a word given twice for both, and refuses marks it cannot read', () => {
    const m = (s: string) => s.replace(/\[/g, '\u0001').replace(/\]/g, '\u0002');
    expect(frequencies(m('[Release] the [schedule], [RELEASE]'), ['release', 'schedule'])).toEqual([2, 1]);
    expect(frequencies(m('[release]'), ['release', 'release'])).toEqual([1, 1]);
    expect(frequencies(m('[release] only'), ['release', 'schedule'])).toBeNull(); // a word missing
    expect(frequencies(m('[Crème] brûlée'), ['creme'])).toBeNull(); // folded by FTS5, not read here
    expect(frequencies(m('[release [release]]'), ['release'])).toBeNull(); // a mark in the text
    expect(frequencies(m('] [release]'), ['release'])).toBeNull();
    expect(frequencies(m('[release'), ['release'])).toBeNull();
    expect(frequencies(m('[other]'), ['release'])).toBeNull();
  });

  it("weighs as bm25 does: floored for words in most rows, and a row's score from its length", () => {
    expect(idf({ hits: 830, rows: 1000, at: 0 })).toBe(1e-6);
    expect(idf({ hits: 2, rows: 1_000_000, at: 0 })).toBe(Math.log((1_000_000 - 2 + 0.5) / (2 + 0.5)));
    const short = bm25Score([1], [1], 6, 12);
    expect(short).toBeGreaterThan(bm25Score([1], [1], 24, 12));
    expect(bm25Score([2], [1], 12, 12)).toBeGreaterThan(bm25Score([1], [1], 12, 12));
  });

  it('counts a word once, then again only when it is old or the table has grown by more than 1 %', async () => {
    let counted = 0;
    const em = { query: async () => [{ doc: 10 + counted++ }] } as unknown as EntityManager;
    const counts = new WordCounts();
    expect((await counts.hits(em, 'tea', { rows: 1000, tokens: 12_000 }, 0)).hits).toBe(10);
    expect((await counts.hits(em, 'tea', { rows: 1010, tokens: 12_120 }, 60_000)).hits).toBe(10);
    expect((await counts.hits(em, 'tea', { rows: 1011, tokens: 12_132 }, 60_000)).hits).toBe(11);
    expect((await counts.hits(em, 'tea', { rows: 1011, tokens: 12_132 }, 60_000 + 5 * 60_000)).hits).toBe(12);
    expect(counted).toBe(3);
  });
});
