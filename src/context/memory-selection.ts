import { fitInOrder } from './fit-in-order.js';

/** A long-term memory a turn may be given, as one line of the memory message, with that line's tokens. */
interface MemoryLine {
  readonly id: string;
  readonly content: string;
  readonly tokens: number;
}

/** The memory message's header and the lines offered, pinned first then best match first. */
export interface MemoryOffer {
  readonly header: string;
  readonly headerTokens: number;
  readonly lines: readonly MemoryLine[];
  /** MEMORY_TOKEN_BUDGET: the memory message costs at most this, chat format included. */
  readonly budget: number;
}

interface MemorySelection {
  readonly lines: MemoryLine[];
  /** The memory message's cost (chat format included); 0 when no line fits. */
  readonly tokens: number;
}

/**
 * The memories a turn is given: in the order offered (pinned, then best match), each one that
 * still fits within `room` (the smaller of the memory budget and what the context has left),
 * skipping one that does not and trying the next, so one long memory does not keep out the
 * short ones after it. Nothing when not even the header and one line fit.
 */
export function selectMemories(offer: MemoryOffer | null, room: number): MemorySelection {
  if (!offer || offer.lines.length === 0) return { lines: [], tokens: 0 };
  const { items, tokens } = fitInOrder(offer.lines, offer.headerTokens, Math.min(offer.budget, room));
  return { lines: items, tokens };
}

/** The memory message as the model reads it: the header, then one line per memory. */
export function memoryMessage(offer: MemoryOffer, lines: readonly MemoryLine[]): string {
  return [offer.header, ...lines.map((l) => l.content)].join('\n');
}
