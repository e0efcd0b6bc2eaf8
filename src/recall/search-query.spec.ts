import { parseSearchQuery } from './search-query.js';

const words = (text: string) => parseSearchQuery(text).terms.map((t) => `${t.kind}:${t.words.join(' ')}`);

describe('parseSearchQuery', () => {
  it('drops stop words, lower-cases and keeps each word once', () => {
    expect(words('What did THE LGBTQ support group say? the group')).toEqual([
      'word:lgbtq',
      'word:support',
      'word:group',
      'word:say',
    ]);
    expect(parseSearchQuery('the of and or not').terms).toEqual([]);
  });

  it('reads phrases, exclusions and prefixes; a phrase keeps its stop words', () => {
    const q = parseSearchQuery('"the support group" -noisy -"group chat" kaya* e-mail');
    expect(q.terms).toEqual([
      { kind: 'phrase', words: ['the', 'support', 'group'] },
      { kind: 'prefix', words: ['kaya'] },
      { kind: 'phrase', words: ['e', 'mail'] },
    ]);
    expect(q.excluded).toEqual([
      { kind: 'word', words: ['noisy'] },
      { kind: 'phrase', words: ['group', 'chat'] },
    ]);
  });

  it('takes syntax characters as separators and bounds what it keeps', () => {
    expect(words('NEAR(a b) x^y "unbalanced')).toEqual(['phrase:near a', 'word:b', 'phrase:x y', 'word:unbalanced']);
    expect(words('* ** -')).toEqual([]);
    // A one-letter prefix would match most of the index: it is a word.
    expect(words('x*')).toEqual(['word:x']);
    expect(parseSearchQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')).terms).toHaveLength(16);
    expect(parseSearchQuery(`${'a'.repeat(1000)}`).terms[0].words[0]).toHaveLength(64);
  });
});
