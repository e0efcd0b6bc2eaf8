import { fitInOrder } from './fit-in-order.js';

/** One recalled message, shown with its neighbour turn, as one excerpt of the recall message, with that excerpt's tokens. */
interface RecallExcerpt {
  /** The recalled message (not its neighbour): what the reply records in `recalledMessageIds`. */
  readonly id: string;
  readonly content: string;
  readonly tokens: number;
}

/** The recall message's header and the excerpts offered, best match first. */
export interface RecallOffer {
  readonly header: string;
  readonly headerTokens: number;
  readonly excerpts: readonly RecallExcerpt[];
  /** RECALL_TOKEN_BUDGET: the recall message costs at most this, chat format included. */
  readonly budget: number;
}

interface RecallSelection {
  readonly excerpts: RecallExcerpt[];
  /** The recall message's cost (chat format included); 0 when no excerpt fits. */
  readonly tokens: number;
}

/**
 * The excerpts a turn is given: best match first, each one that still fits within `room` (the
 * smaller of the recall budget and what the context has left), skipping one that does not, so
 * one long excerpt does not keep out shorter ones after it. Nothing when not even the header
 * and one excerpt fit.
 */
export function selectRecall(offer: RecallOffer | null, room: number): RecallSelection {
  if (!offer || offer.excerpts.length === 0) return { excerpts: [], tokens: 0 };
  const { items, tokens } = fitInOrder(offer.excerpts, offer.headerTokens, Math.min(offer.budget, room));
  return { excerpts: items, tokens };
}

/** The recall message as the model reads it: the header, then the excerpts, a blank line apart. */
export function recallMessage(offer: RecallOffer, excerpts: readonly RecallExcerpt[]): string {
  return [offer.header, ...excerpts.map((e) => e.content)].join('\n\n');
}
