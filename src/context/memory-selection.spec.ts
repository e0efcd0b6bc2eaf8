import { memoryMessage, selectMemories, type MemoryOffer } from './memory-selection.js';
import { TOKENS_PER_MESSAGE } from './token-counter.js';

const offer = (budget: number, ...tokens: number[]): MemoryOffer => ({
  header: 'Memories:',
  headerTokens: 3,
  budget,
  lines: tokens.map((t, i) => ({ id: `m${i}`, content: `- fact ${i}`, tokens: t })),
});
const ids = (o: MemoryOffer, room = 1_000_000) => selectMemories(o, room).lines.map((l) => l.id);

describe('selectMemories', () => {
  it('keeps the offered order while everything fits, and counts the message with its header and chat format', () => {
    const selection = selectMemories(offer(100, 10, 20, 30), 1_000);
    expect(selection.lines.map((l) => l.id)).toEqual(['m0', 'm1', 'm2']);
    expect(selection.tokens).toBe(TOKENS_PER_MESSAGE + 3 + 60);
  });

  it('never passes the memory budget: a line that does not fit is skipped, and later shorter ones still come', () => {
    // 4 + 3 = 7 for the message; 7 + 10 = 17; 50 would make 67 > 40; 20 makes 37.
    expect(ids(offer(40, 10, 50, 20, 5))).toEqual(['m0', 'm2']);
    const s = selectMemories(offer(40, 10, 50, 20, 5), 1_000);
    expect(s.tokens).toBeLessThanOrEqual(40);
  });

  it('keeps within the room the context has left when that is smaller than the budget', () => {
    expect(ids(offer(1_000, 10, 10, 10), 7 + 20)).toEqual(['m0', 'm1']);
  });

  it('sends no message at all when no line fits, nothing offered, or no budget', () => {
    expect(selectMemories(offer(10, 20), 1_000)).toEqual({ lines: [], tokens: 0 });
    expect(selectMemories(offer(100), 1_000)).toEqual({ lines: [], tokens: 0 });
    expect(selectMemories(null, 1_000)).toEqual({ lines: [], tokens: 0 });
    expect(selectMemories(offer(0, 1), 1_000)).toEqual({ lines: [], tokens: 0 });
  });

  it('writes the header and one line per memory', () => {
    const o = offer(100, 1, 1);
    expect(memoryMessage(o, o.lines)).toBe('Memories:\n- fact 0\n- fact 1');
  });
});
