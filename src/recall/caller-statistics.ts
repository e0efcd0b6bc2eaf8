import type { EntityManager } from 'typeorm';
import type { CallerTotals, MessageSearchRepository, SearchTerm } from '../conversations/message-search.repository.js';

/** How many figures are kept (the oldest go first). */
const KEPT = 10_000;
/**
 * How long a figure is kept per message of the history it describes, and at least. A turn changes
 * a small history's shares of each word by a large step, and counting it costs little: its
 * figures are read again within seconds. A large one's change slowly, and cost tens of ms to count.
 */
const KEPT_MS_PER_MESSAGE = 1;
const KEPT_MS_AT_LEAST = 2_000;

interface Kept<T> {
  readonly value: T;
  readonly at: number;
  /** How long the history it describes lets it be kept (maxAgeMs, read when it is asked for, bounds it too). */
  readonly keptMs: number;
}

/**
 * The caller's own figures that BM25 weighs terms by: how many of their messages there are, how
 * long they are, and how many hold each term. Nothing of another actor enters them. Each figure
 * is kept a while, at most `maxAgeMs` (a ranking may lag the caller's newest messages by that
 * long; tests set it to 0), less for a small history.
 */
export class CallerStatistics {
  maxAgeMs = 60_000;
  private readonly kept = new Map<string, Kept<number | CallerTotals>>();

  constructor(
    private readonly repo: MessageSearchRepository,
    private readonly now: () => number = Date.now,
  ) {}

  totals(em: EntityManager, actor: string): Promise<CallerTotals> {
    return this.cached(`t\u0000${actor}`, actor, () => this.repo.totals(em, actor));
  }

  /** The caller's questions and answers in stored tokens, what a turn's recall weighs lengths by. */
  recallTotals(em: EntityManager, actor: string): Promise<CallerTotals> {
    return this.cached(`r\u0000${actor}`, actor, () => this.repo.recallTotals(em, actor));
  }

  /** The figure kept for `term`, if it is still fresh: a turn reads the others with its matches. */
  keptTermHits(actor: string, term: SearchTerm): number | undefined {
    return this.fresh(termKey(actor, term)) as number | undefined;
  }

  /** The caller's messages holding `term`; `known` when the caller just read all of them. */
  termHits(em: EntityManager, actor: string, term: SearchTerm, known?: number): Promise<number> {
    const key = termKey(actor, term);
    if (known !== undefined) {
      this.remember(key, actor, known);
      return Promise.resolve(known);
    }
    return this.cached(key, actor, () => this.repo.termCount(em, actor, term));
  }

  private async cached<T extends number | CallerTotals>(
    key: string,
    actor: string,
    load: () => Promise<T>,
  ): Promise<T> {
    const seen = this.fresh(key);
    if (seen !== undefined) return seen as T;
    const value = await load();
    this.remember(key, actor, value);
    return value;
  }

  private fresh(key: string): number | CallerTotals | undefined {
    const seen = this.kept.get(key);
    return seen && this.now() - seen.at < Math.min(seen.keptMs, this.maxAgeMs) ? seen.value : undefined;
  }

  private remember(key: string, actor: string, value: number | CallerTotals): void {
    // A count is kept as long as the caller's totals say; without them its own size is a floor.
    const docs =
      typeof value === 'number'
        ? Math.max(value, docsOf(this.fresh(`r\u0000${actor}`)), docsOf(this.fresh(`t\u0000${actor}`)))
        : value.docs;
    const keptMs = Math.max(KEPT_MS_AT_LEAST, docs * KEPT_MS_PER_MESSAGE);
    this.kept.delete(key);
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { value, at: this.now(), keptMs });
  }
}

const docsOf = (totals: number | CallerTotals | undefined) => (typeof totals === 'object' ? totals.docs : 0);
const termKey = (actor: string, term: SearchTerm) => `n\u0000${actor}\u0000${term.kind}\u0000${term.words.join(' ')}`;
