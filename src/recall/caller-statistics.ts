import type { EntityManager } from 'typeorm';
import type { CallerTotals, MessageSearchRepository, SearchTerm } from '../conversations/message-search.repository.js';

/** How many figures are kept (the oldest go first). */
const KEPT = 10_000;

interface Kept<T> {
  readonly value: T;
  readonly at: number;
}

/**
 * The caller's own figures that BM25 weighs terms by: how many of their messages there are, how
 * long they are, and how many hold each term. Nothing of another actor enters them. Counting a
 * large history costs tens of milliseconds, so each figure is kept for `maxAgeMs` (a ranking
 * may lag the caller's newest messages by that long; tests set it to 0).
 */
export class CallerStatistics {
  maxAgeMs = 60_000;
  private readonly kept = new Map<string, Kept<number | CallerTotals>>();

  constructor(private readonly repo: MessageSearchRepository) {}

  totals(em: EntityManager, actor: string): Promise<CallerTotals> {
    return this.cached(`t\u0000${actor}`, () => this.repo.totals(em, actor));
  }

  /** The caller's questions and answers in stored tokens, what a turn's recall weighs lengths by. */
  recallTotals(em: EntityManager, actor: string): Promise<CallerTotals> {
    return this.cached(`r\u0000${actor}`, () => this.repo.recallTotals(em, actor));
  }

  /** The figure kept for `term`, if it is still fresh: a turn reads the others with its matches. */
  keptTermHits(actor: string, term: SearchTerm): number | undefined {
    const seen = this.kept.get(termKey(actor, term));
    return seen && Date.now() - seen.at < this.maxAgeMs ? (seen.value as number) : undefined;
  }

  /** The caller's messages holding `term`; `known` when the caller just read all of them. */
  termHits(em: EntityManager, actor: string, term: SearchTerm, known?: number): Promise<number> {
    const key = termKey(actor, term);
    if (known !== undefined) {
      this.remember(key, known);
      return Promise.resolve(known);
    }
    return this.cached(key, () => this.repo.termCount(em, actor, term));
  }

  private async cached<T extends number | CallerTotals>(key: string, load: () => Promise<T>): Promise<T> {
    const seen = this.kept.get(key);
    if (seen && Date.now() - seen.at < this.maxAgeMs) return seen.value as T;
    const value = await load();
    this.remember(key, value);
    return value;
  }

  private remember(key: string, value: number | CallerTotals): void {
    this.kept.delete(key);
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { value, at: Date.now() });
  }
}

const termKey = (actor: string, term: SearchTerm) => `n\u0000${actor}\u0000${term.kind}\u0000${term.words.join(' ')}`;
