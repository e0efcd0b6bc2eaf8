import type { EntityManager } from 'typeorm';
import type { CallerTotals, MessageSearchRepository, SearchTerm } from '../conversations/message-search.repository.js';
import { CallerStatistics } from './caller-statistics.js';

/** A repository that counts what it is asked, over a history whose size the test sets. */
function history(docs: number) {
  const asked = { totals: 0, terms: 0 };
  const repo = {
    docs,
    recallTotals: (): Promise<CallerTotals> => {
      asked.totals += 1;
      return Promise.resolve({ docs: repo.docs, length: repo.docs * 10 });
    },
    termCount: (): Promise<number> => {
      asked.terms += 1;
      return Promise.resolve(repo.docs);
    },
  };
  return { repo, asked };
}

const em = {} as EntityManager;
const word: SearchTerm = { kind: 'word', words: ['gulls'] };

describe('CallerStatistics', () => {
  let now = 1_000_000;
  const clock = () => now;

  it("keeps a large history's figures a minute: counting them is what costs", async () => {
    const { repo, asked } = history(100_000);
    const statistics = new CallerStatistics(repo as unknown as MessageSearchRepository, clock);
    await statistics.recallTotals(em, 'a');
    await statistics.termHits(em, 'a', word);
    now += 59_000;
    await statistics.recallTotals(em, 'a');
    await statistics.termHits(em, 'a', word);
    expect(asked).toEqual({ totals: 1, terms: 1 });
    now += 2_000;
    await statistics.recallTotals(em, 'a');
    expect(asked.totals).toBe(2);
  });

  it("reads a small history's figures again within seconds, as its words' shares change with every turn", async () => {
    const { repo, asked } = history(300);
    const statistics = new CallerStatistics(repo as unknown as MessageSearchRepository, clock);
    expect(await statistics.recallTotals(em, 'a')).toEqual({ docs: 300, length: 3_000 });
    await statistics.termHits(em, 'a', word, 0);
    now += 1_500;
    expect(statistics.keptTermHits('a', word)).toBe(0);
    repo.docs = 900;
    now += 1_000;
    // The history is young: the kept figures are gone, and the next read counts again.
    expect(statistics.keptTermHits('a', word)).toBeUndefined();
    expect(await statistics.recallTotals(em, 'a')).toEqual({ docs: 900, length: 9_000 });
    expect(asked.totals).toBe(2);
  });

  it('keeps nothing when maxAgeMs is 0', async () => {
    const { repo, asked } = history(100_000);
    const statistics = new CallerStatistics(repo as unknown as MessageSearchRepository, clock);
    statistics.maxAgeMs = 0;
    await statistics.recallTotals(em, 'a');
    await statistics.recallTotals(em, 'a');
    expect(asked.totals).toBe(2);
  });
});
