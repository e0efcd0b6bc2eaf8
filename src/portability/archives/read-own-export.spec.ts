import { Readable } from 'node:stream';
import { TooManyConversationsError, UnknownArchiveFormatError } from './archive.errors.js';
import { DEFAULT_ARCHIVE_LIMITS } from './archive.types.js';
import { EventLoopTurns } from './event-loop-turns.js';
import { type OwnExportPart, readOwnExport } from './read-own-export.js';

function chunked(text: string, size = 1000): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

async function read(
  document: unknown,
  limits = {},
  turns = new EventLoopTurns(),
  chunkSize = 7,
): Promise<OwnExportPart[]> {
  const parts: OwnExportPart[] = [];
  const text = typeof document === 'string' ? document : JSON.stringify(document);
  for await (const part of await readOwnExport(
    chunked(text, chunkSize),
    { ...DEFAULT_ARCHIVE_LIMITS, ...limits },
    turns,
  ))
    parts.push(part);
  return parts;
}

const conversation = (title: string) => ({
  format: 'chat-memory.conversation',
  version: 2,
  exportedAt: '2024-01-01T00:00:00.000Z',
  conversation: { id: `id-${title}`, title },
});

describe('readOwnExport', () => {
  it('hands out the agents before the conversations, the memories after them, and leaves shares and unknown members unread', async () => {
    const parts = await read({
      format: 'chat-memory.account',
      version: 2,
      agents: [{ name: 'A' }],
      extra: { anything: [1, 2, 3] },
      conversations: [conversation('one'), conversation('two')],
      shares: [{ token: 'x' }],
      memories: [{ text: 'm', pinned: true }],
    });
    expect(parts).toEqual([
      { kind: 'agents', agents: [{ name: 'A' }], notRead: 0 },
      { kind: 'conversation', index: 0, document: conversation('one') },
      { kind: 'conversation', index: 1, document: conversation('two') },
      { kind: 'memories', memories: [{ text: 'm', pinned: true }], notRead: 0 },
    ]);
  });

  it('reads a single conversation export as one conversation, whatever the order of its members', async () => {
    const { conversation: c, ...rest } = conversation('solo');
    expect(await read({ format: rest.format, conversation: c, version: 2, exportedAt: rest.exportedAt })).toEqual([
      { kind: 'agents', agents: [], notRead: 0 },
      { kind: 'conversation', index: 0, document: conversation('solo') },
      { kind: 'memories', memories: [], notRead: 0 },
    ]);
  });

  it('skips a conversation larger than the bound unparsed, naming it from its first bytes', async () => {
    const big = {
      ...conversation('big'),
      conversation: { id: 'id-big', title: 'big', messages: [{ content: 'x'.repeat(5000) }] },
    };
    const parts = await read(
      { format: 'chat-memory.account', conversations: [big, conversation('small')] },
      { maxOwnConversationBytes: 4000 },
    );
    expect(parts[1]).toEqual({
      kind: 'skipped',
      skipped: {
        index: 0,
        sourceId: 'id-big',
        title: 'big',
        reason: expect.stringMatching(
          /^larger than 4000 bytes \(\d+\): not read; import it alone with POST \/api\/conversations\/import$/,
        ),
      },
    });
    expect(parts[2]).toMatchObject({ kind: 'conversation', index: 1 });
  });

  it('bounds the agents and memories it keeps, counting the rest', async () => {
    const parts = await read(
      { format: 'chat-memory.account', agents: [{}, {}, {}], memories: [{}, {}, {}, {}] },
      { maxAgents: 2, maxMemories: 1 },
    );
    expect(parts).toEqual([
      { kind: 'agents', agents: [{}, {}], notRead: 1 },
      { kind: 'memories', memories: [{}], notRead: 3 },
    ]);
  });

  it('refuses more conversations than the bound when it reaches them (the work of an import is bounded)', async () => {
    const doc = { format: 'chat-memory.account', conversations: Array.from({ length: 6 }, () => ({})) };
    await expect(read(doc, { maxConversations: 5 })).rejects.toThrow(TooManyConversationsError);
  });

  it('gives the event loop turns by time while it reads many tiny conversations [slow]', async () => {
    const turns = new EventLoopTurns();
    const doc = `{"format":"chat-memory.account","conversations":[${Array(90_000).fill('{}').join(',')}]}`;
    // In one chunk: only the reader's own turns let other work in.
    const parts = await read(doc, {}, turns, 1 << 30);
    expect(parts).toHaveLength(90_002);
    expect(turns.given).toBeGreaterThan(0);
  });

  it.each([
    [{ conversations: [], format: 'chat-memory.account' }, /"format" does not come before its conversations/],
    [{ format: 'something.else', conversations: [] }, /without "format": "chat-memory.account"/],
    [{ a: 1 }, /without "format"/],
  ])('is not our export without "format" first (%j)', async (doc, message) => {
    await expect(read(doc)).rejects.toThrow(UnknownArchiveFormatError);
    await expect(read(doc)).rejects.toThrow(message);
  });
});
