import type { ExportedConversation } from './export-document.js';
import { parseConversationExport } from './export-parse.js';
import { checkTree, treeToRows } from './export-tree.js';
import { Problems } from './import-problems.js';
import { problemsOfRejected } from '../../test/support/import-rejection.js';

const limits = { maxMessageChars: 100 };
const at = (s: number) => `2026-11-30T05:55:${String(s).padStart(2, '0')}.000Z`;
type Raw = Record<string, unknown>;
const msg = (seq: number, id: string, parentId: string | null, extra: Raw = {}): Raw => ({
  id,
  parentId,
  seq,
  thread: 'main',
  role: 'user',
  content: id,
  status: 'complete',
  model: null,
  promptTokens: null,
  completionTokens: null,
  error: null,
  createdAt: at(seq),
  toolCalls: [],
  ...extra,
});
const doc = (messages: Raw[], conversation: Raw = {}, version = 2) => ({
  format: 'chat-memory.conversation',
  version,
  conversation: { title: 'T', createdAt: at(0), messages, ...conversation },
});

/** q1 → a1 (a regenerated sibling a2), an edit q1' → b1 of the first question; a side thread with s1 → s2. */
const tree = () => [
  msg(1, 'q1', null),
  msg(2, 'a1', 'q1', { role: 'assistant' }),
  msg(3, 's1', null, { thread: 'side' }),
  msg(4, 'a2', 'q1', { role: 'assistant' }),
  msg(5, 'q1e', null),
  msg(6, 'b1', 'q1e', { role: 'assistant' }),
  msg(7, 's2', 's1', { thread: 'side', role: 'assistant' }),
];

const problemsOf = (input: unknown) => problemsOfRejected(() => parseConversationExport(input, limits));

describe('version 2 import: the tree', () => {
  it('keeps each parent and the recorded active leaf, even one that is not the newest', async () => {
    const parsed = await parseConversationExport(
      doc(tree(), { threads: [{ name: 'main', systemPrompt: null, activeLeafId: 'a1' }] }),
      limits,
    );
    expect(parsed.version).toBe(2);
    expect(parsed.tree!.parents).toEqual([-1, 0, -1, 0, -1, 4, 2]);
    // main: q1 → a1 as recorded; side has no leaf recorded: its newest leaf.
    expect(parsed.tree!.onPath).toEqual([true, true, true, false, false, false, true]);
    // q1 has two answers, main has two first messages.
    expect(parsed.tree!.branchPoints).toBe(2);
    expect(parsed.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(parsed.messages.every((m) => m.versions === null)).toBe(true);

    const rows = treeToRows(parsed.messages, parsed.tree!, 'c1');
    const byContent = new Map(rows.map((r) => [r.content, r]));
    expect(byContent.get('a2')!.parentId).toBe(byContent.get('q1')!.id);
    expect(byContent.get('s2')!.parentId).toBe(byContent.get('s1')!.id);
    expect(byContent.get('q1e')!.parentId).toBeNull();
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.map((r) => r.id)).not.toContain('q1');
  });

  it('makes the newest leaf active when none is recorded, and leaves a leaf of null alone', async () => {
    const parsed = await parseConversationExport(
      doc(tree(), { threads: [{ name: 'main', systemPrompt: null, activeLeafId: null }] }),
      limits,
    );
    expect(parsed.tree!.onPath).toEqual([false, false, true, false, true, true, true]);
  });

  it('maps what a summary covers to the new seqs', async () => {
    const messages = tree().map((m) => ({ ...m, seq: (m.seq as number) * 10 }));
    const parsed = await parseConversationExport(
      doc(messages, { summaries: [{ thread: 'main', content: 's', coversSeq: 40, tokens: 1, model: 'm' }] }),
      limits,
    );
    expect(parsed.summaries.map((s) => s.coversSeq)).toEqual([4]);
  });

  it.each<[string, Raw[], Raw, string, RegExp]>([
    [
      'an id twice',
      [msg(1, 'q', null), msg(2, 'q', null)],
      {},
      '$.conversation.messages',
      /^node id "q" appears twice$/,
    ],
    [
      'a dangling parent',
      [msg(1, 'q', null), msg(2, 'a', 'gone')],
      {},
      '$.conversation.messages',
      /^node "a" has parent "gone", which is not in the conversation$/,
    ],
    [
      'a cycle',
      [msg(1, 'q', null), msg(2, 'a', 'b'), msg(3, 'b', 'a')],
      {},
      '$.conversation.messages',
      /^a cycle: the parents of node "a" never reach a first message$/,
    ],
    [
      'a parent listed after its reply',
      [msg(1, 'a', 'q'), msg(2, 'q', null)],
      {},
      '$.conversation.messages[0].parentId',
      /^is listed after this message/,
    ],
    [
      'a parent of another thread',
      [msg(1, 'q', null), msg(2, 'a', 'q', { thread: 'side' })],
      {},
      '$.conversation.messages[1].parentId',
      /^is a message of thread "main": a message follows one of its own thread \("side"\)$/,
    ],
    [
      'a message without id',
      [msg(1, 'q', null), { ...msg(2, 'x', 'q'), id: undefined }],
      {},
      '$.conversation.messages[1].id',
      /^is missing \(a string\)/,
    ],
    [
      'an id that is not a string',
      [msg(1, 'q', null), msg(2, 'x', 'q', { id: 7 })],
      {},
      '$.conversation.messages[1].id',
      /^must be a string$/,
    ],
    [
      'an active leaf that does not exist',
      [msg(1, 'q', null)],
      { threads: [{ name: 'main', systemPrompt: null, activeLeafId: 'nope' }] },
      '$.conversation.threads[0].activeLeafId',
      /^"nope" is not the id of a message of this conversation$/,
    ],
    [
      'an active leaf of another thread',
      [msg(1, 'q', null), msg(2, 's', null, { thread: 'side' })],
      { threads: [{ name: 'main', systemPrompt: null, activeLeafId: 's' }] },
      '$.conversation.threads[0].activeLeafId',
      /^is a message of thread "side", not of "main"$/,
    ],
  ])('refuses %s with its path', async (_name, messages, conversation, path, message) => {
    expect(await problemsOf(doc(messages, conversation))).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it('refuses a tree deeper or larger than the limits', () => {
    const chain = Array.from({ length: 6 }, (_, i) =>
      msg(i + 1, `m${i}`, i === 0 ? null : `m${i - 1}`),
    ) as unknown as ExportedConversation['messages'];
    const c = { title: 'T', createdAt: at(0), messages: chain } as unknown as ExportedConversation;
    const deep = new Problems();
    expect(checkTree(deep, c, '$.conversation', { maxNodes: 100, maxDepth: 5 })).toBeNull();
    expect(deep.listed).toEqual([
      { path: '$.conversation.messages', message: 'too deep (more than 5 messages on one path)' },
    ]);
    const large = new Problems();
    expect(checkTree(large, c, '$.conversation', { maxNodes: 5, maxDepth: 100 })).toBeNull();
    expect(large.listed).toEqual([{ path: '$.conversation.messages', message: 'too many nodes (6, the limit is 5)' }]);
    expect(checkTree(new Problems(), c, '$.conversation', { maxNodes: 6, maxDepth: 6 })!.onPath).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('walks a long chain without recursion [slow]', async () => {
    const n = 20_000;
    const chain = Array.from({ length: n }, (_, i) =>
      msg(i + 1, `m${i}`, i === 0 ? null : `m${i - 1}`, { createdAt: at(0) }),
    );
    const parsed = await parseConversationExport(doc(chain), limits);
    expect(parsed.tree!.onPath.filter(Boolean)).toHaveLength(n);
  });

  it('reads version 1 as before: message ids and parents there are ignored', async () => {
    const v1 = doc(
      [
        msg(1, 'q', null, { id: 7, parentId: 'gone', versions: [] }),
        msg(2, 'a', 'q', { role: 'assistant', versions: [] }),
      ],
      {},
      1,
    );
    const parsed = await parseConversationExport(v1, limits);
    expect(parsed).toMatchObject({ version: 1, tree: null });
    expect(parsed.messages.map((m) => m.content)).toEqual(['q', 'a']);
  });
});
