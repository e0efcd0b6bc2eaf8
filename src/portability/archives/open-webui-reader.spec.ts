import { openWebUiChat } from './archive-builders.js';
import { type ArchiveConversation, type ArchiveEntry, DEFAULT_ARCHIVE_LIMITS } from './archive.types.js';
import { readOpenWebUiChat } from './open-webui-reader.js';

function read(raw: unknown): ArchiveEntry {
  return readOpenWebUiChat(raw, 3, DEFAULT_ARCHIVE_LIMITS);
}

function conversation(raw: unknown): ArchiveConversation {
  const entry = read(raw);
  if (entry.kind !== 'conversation') throw new Error(`skipped: ${entry.skipped.reason}`);
  return entry.conversation;
}

function reason(raw: unknown): string {
  const entry = read(raw);
  if (entry.kind !== 'skipped') throw new Error('expected a skip');
  return entry.skipped.reason;
}

describe('Open WebUI export reader', () => {
  it('reads the history tree: an edited first question (two roots), a regenerated answer, currentId', () => {
    const c = conversation(
      openWebUiChat({
        id: 'w-1',
        title: 'Rust lifetimes',
        system: 'You are a Rust mentor.',
        currentId: 'a1b',
        messages: [
          { id: 'u1', parentId: null, role: 'user', content: 'Explain lifetimes', timestamp: 1_710_000_010 },
          {
            id: 'a1',
            parentId: 'u1',
            role: 'assistant',
            content: 'They bound references.',
            timestamp: 1_710_000_020,
            model: 'qwen2.5:7b',
          },
          { id: 'u1b', parentId: null, role: 'user', content: 'Explain lifetimes simply', timestamp: 1_710_000_100 },
          { id: 'a1a', parentId: 'u1b', role: 'assistant', content: 'Think of a loan.', timestamp: 1_710_000_110 },
          { id: 'a1b', parentId: 'u1b', role: 'assistant', content: 'A borrow has an end.', timestamp: 1_710_000_120 },
        ],
      }),
    );
    expect(c).toMatchObject({
      source: 'open-webui',
      sourceId: 'w-1',
      title: 'Rust lifetimes',
      systemPrompt: 'You are a Rust mentor.',
      activeLeafId: 'a1b',
      branchPoints: 2,
    });
    expect(c.createdAt).toEqual(new Date(1_710_000_000_000));
    expect(c.updatedAt).toEqual(new Date(1_710_000_600_000));
    expect(c.messages.map((m) => [m.id, m.parentId, m.role, m.model])).toEqual([
      ['u1', null, 'user', null],
      ['a1', 'u1', 'assistant', 'qwen2.5:7b'],
      ['u1b', null, 'user', null],
      ['a1a', 'u1b', 'assistant', 'llama3.1:8b'],
      ['a1b', 'u1b', 'assistant', 'llama3.1:8b'],
    ]);
    expect(c.messages[0].createdAt).toEqual(new Date(1_710_000_010_000));
  });

  it('reads the older linear shape (chat.messages only) as a chain', () => {
    const raw = openWebUiChat({
      id: 'w-2',
      messages: [
        { id: 'x', parentId: null, role: 'user', content: 'one' },
        { id: 'y', parentId: 'x', role: 'assistant', content: 'two' },
      ],
    });
    const chat = raw.chat as Record<string, unknown>;
    delete chat.history;
    chat.messages = [
      { role: 'user', content: 'one', timestamp: 1_710_000_001 },
      { role: 'assistant', content: 'two', timestamp: 1_710_000_002 },
      { role: 'user', content: 'three', timestamp: 1_710_000_003 },
    ];
    const c = conversation(raw);
    expect(c.messages.map((m) => [m.id, m.parentId, m.content])).toEqual([
      ['0', null, 'one'],
      ['1', '0', 'two'],
      ['2', '1', 'three'],
    ]);
    expect(c.activeLeafId).toBe('2');
  });

  it('accepts timestamps in milliseconds too', () => {
    const c = conversation(
      openWebUiChat({
        id: 'w-ms',
        messages: [{ id: 'u', parentId: null, role: 'user', content: 'hi', timestamp: 1_710_000_010_123 }],
      }),
    );
    expect(c.messages[0].createdAt).toEqual(new Date(1_710_000_010_123));
  });

  it('moves reasoning blocks to `reasoning`, counts tool calls and files, keeps statuses', () => {
    const c = conversation(
      openWebUiChat({
        id: 'w-3',
        messages: [
          {
            id: 'u',
            parentId: null,
            role: 'user',
            content: 'What is this?',
            files: [
              { type: 'image', url: 'data:image/png;base64,AAAA' },
              { type: 'file', name: 'notes.txt' },
            ],
          },
          {
            id: 'a',
            parentId: 'u',
            role: 'assistant',
            content:
              '<details type="reasoning" done="true" duration="2">\n<summary>Thought for 2 seconds</summary>\n> It looks like a chart.\n> With two axes.\n</details>\n' +
              '<details type="tool_calls" done="true" content="[]" results="[]">\n<summary>Tool Executed</summary>\n</details>\nA chart.',
          },
          { id: 'u2', parentId: 'a', role: 'user', content: 'More' },
          { id: 'a2', parentId: 'u2', role: 'assistant', content: 'The x axis', done: false },
          { id: 'u3', parentId: 'a2', role: 'user', content: 'Again' },
          {
            id: 'a3',
            parentId: 'u3',
            role: 'assistant',
            content: 'Partial',
            error: { content: 'Ollama: connection refused' },
          },
          { id: 'img', parentId: 'a3', role: 'user', content: '', files: [{ type: 'image', url: 'x' }] },
        ],
      }),
    );
    expect(c.messages.map((m) => [m.id, m.content, m.reasoning, m.status])).toEqual([
      ['u', 'What is this?', null, 'complete'],
      ['a', 'A chart.', 'It looks like a chart.\nWith two axes.', 'complete'],
      ['u2', 'More', null, 'complete'],
      ['a2', 'The x axis', null, 'cancelled'],
      ['u3', 'Again', null, 'complete'],
      ['a3', 'Partial', null, 'failed'],
      ['img', '[not imported: 1 image]', null, 'complete'],
    ]);
    expect(c.dropped).toMatchObject({ images: 2, files: 1, toolMessages: 1 });
  });

  it('takes a system message as the system prompt when the chat has none', () => {
    const c = conversation(
      openWebUiChat({
        id: 'w-4',
        messages: [
          { id: 's', parentId: null, role: 'system', content: 'Speak French.' },
          { id: 'u', parentId: 's', role: 'user', content: 'Hello' },
        ],
      }),
    );
    expect(c.systemPrompt).toBe('Speak French.');
    expect(c.messages.map((m) => [m.id, m.parentId])).toEqual([['u', null]]);
  });

  describe('corrupted chats are skipped with a reason', () => {
    it('no history and no messages', () => {
      const raw = openWebUiChat({ id: 'bad', title: 'Bad', messages: [] });
      const chat = raw.chat as Record<string, unknown>;
      delete chat.history;
      delete chat.messages;
      expect(read(raw)).toEqual({
        kind: 'skipped',
        skipped: {
          index: 3,
          sourceId: 'bad',
          title: 'Bad',
          reason: 'no "chat.history" (the message tree) in this chat',
        },
      });
    });

    it('a cycle', () => {
      expect(
        reason(
          openWebUiChat({
            id: 'bad',
            messages: [
              { id: 'u', parentId: null, role: 'user', content: 'a' },
              { id: 'p', parentId: 'q', role: 'user', content: 'b' },
              { id: 'q', parentId: 'p', role: 'assistant', content: 'c' },
            ],
          }),
        ),
      ).toMatch(/^a cycle/);
    });

    it('a dangling parent', () => {
      expect(
        reason(openWebUiChat({ id: 'bad', messages: [{ id: 'u', parentId: 'nope', role: 'user', content: 'a' }] })),
      ).toBe('node "u" has parent "nope", which is not in the conversation');
    });

    it('an id twice', () => {
      const raw = openWebUiChat({
        id: 'bad',
        messages: [
          { id: 'u', parentId: null, role: 'user', content: 'a' },
          { id: 'v', parentId: 'u', role: 'assistant', content: 'b' },
        ],
      });
      (raw.chat as { history: { messages: Record<string, { id: string }> } }).history.messages.v.id = 'u';
      expect(reason(raw)).toBe('node id "u" appears twice');
    });

    it('a currentId that does not exist falls back to the newest leaf, noted', () => {
      const c = conversation(
        openWebUiChat({
          id: 'w',
          currentId: 'gone',
          messages: [
            { id: 'u', parentId: null, role: 'user', content: 'a', timestamp: 1 },
            { id: 'v', parentId: 'u', role: 'assistant', content: 'b', timestamp: 3 },
            { id: 'w', parentId: 'u', role: 'assistant', content: 'c', timestamp: 2 },
          ],
        }),
      );
      expect(c.activeLeafId).toBe('v');
      expect(c.notes).toEqual(['the recorded active message "gone" does not exist: the newest leaf is active']);
    });
  });
});
