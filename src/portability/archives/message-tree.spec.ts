import fc from 'fast-check';
import { DEFAULT_ARCHIVE_LIMITS } from './archive.types.js';
import { buildMessageTree, type SourceNode } from './message-tree.js';

/** A random forest: node k's parent is an earlier node or none; some nodes hidden; listed in a shuffled order. */
const forest = fc
  .array(
    fc.record({
      parent: fc.nat(),
      root: fc.boolean(),
      shown: fc.boolean(),
      time: fc.option(fc.integer({ min: 1, max: 50 })),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .chain((specs) =>
    fc.tuple(
      fc.constant(specs),
      fc.shuffledSubarray(
        specs.map((_, k) => k),
        { minLength: specs.length, maxLength: specs.length },
      ),
    ),
  );

function nodesOf(
  specs: { parent: number; root: boolean; shown: boolean; time: number | null }[],
  order: number[],
): SourceNode[] {
  return order.map((k, position) => ({
    id: `n${k}`,
    parentId: k === 0 || specs[k].root ? null : `n${specs[k].parent % k}`,
    time: specs[k].time,
    order: position,
    message: specs[k].shown
      ? {
          role: k % 2 ? 'assistant' : 'user',
          content: `m${k}`,
          reasoning: null,
          createdAt: new Date(specs[k].time ?? 1),
          model: null,
          status: 'complete',
        }
      : null,
  }));
}

describe('buildMessageTree', () => {
  it('keeps every shown node, under its nearest shown ancestor, parents first, with a leaf active', () => {
    fc.assert(
      fc.property(forest, ([specs, order]) => {
        const nodes = nodesOf(specs, order);
        const result = buildMessageTree(nodes, null, DEFAULT_ARCHIVE_LIMITS);
        const byId = new Map(nodes.map((n) => [n.id, n]));
        const nearestShown = (parentId: string | null): string | null => {
          let current = parentId;
          while (current !== null && !byId.get(current)!.message) current = byId.get(current)!.parentId;
          return current;
        };
        const shown = nodes.filter((n) => n.message);
        if (shown.length === 0) {
          expect(result).toEqual({ ok: false, reason: 'no user or assistant messages' });
          return;
        }
        if (!result.ok) throw new Error(result.reason);
        const { messages, activeLeafId } = result.tree;
        expect(new Set(messages.map((m) => m.id))).toEqual(new Set(shown.map((n) => n.id)));
        const position = new Map(messages.map((m, i) => [m.id, i]));
        for (const message of messages) {
          expect(message.parentId).toBe(nearestShown(byId.get(message.id)!.parentId));
          if (message.parentId !== null)
            expect(position.get(message.parentId)!).toBeLessThan(position.get(message.id)!);
        }
        expect(messages.some((m) => m.parentId === activeLeafId)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a cycle below a healthy root', () => {
    const node = (id: string, parentId: string | null): SourceNode => ({
      id,
      parentId,
      time: null,
      order: 0,
      message: { role: 'user', content: id, reasoning: null, createdAt: new Date(1), model: null, status: 'complete' },
    });
    const result = buildMessageTree(
      [node('a', null), node('b', 'd'), node('c', 'b'), node('d', 'c')],
      'a',
      DEFAULT_ARCHIVE_LIMITS,
    );
    expect(result).toEqual({ ok: false, reason: 'a cycle: the parents of node "b" never reach a first message' });
  });
});
