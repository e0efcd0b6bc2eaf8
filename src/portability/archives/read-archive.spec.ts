import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { chatGptConversation, linearChatGptConversation, openWebUiChat } from './archive-builders.js';
import { MalformedArchiveError, UnknownArchiveFormatError } from './archive.errors.js';
import type { ArchiveEntry } from './archive.types.js';
import { type OpenedArchive, readArchive } from './read-archive.js';

/** The text in chunks of `size` bytes, as an upload arrives. */
function chunked(text: string, size = 1000): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

async function all(opened: OpenedArchive): Promise<ArchiveEntry[]> {
  if (opened.format === 'chat-memory') throw new Error('not a foreign archive');
  const out: ArchiveEntry[] = [];
  for await (const entry of opened.entries) out.push(entry);
  return out;
}

const gpt = (id: string) =>
  chatGptConversation({
    id,
    title: `T ${id}`,
    nodes: [
      ['r', null, null],
      ['u', 'r', { role: 'user', text: `hello ${id}` }],
    ],
  });
const webui = (id: string) =>
  openWebUiChat({ id, messages: [{ id: 'u', parentId: null, role: 'user', content: 'hi' }] });

describe('readArchive: detection', () => {
  it('tells a ChatGPT export from its content', async () => {
    const opened = await readArchive(chunked(JSON.stringify([gpt('a'), gpt('b')]), 7));
    expect(opened.format).toBe('chatgpt');
    expect(
      (await all(opened)).map((e) => (e.kind === 'conversation' ? e.conversation.sourceId : e.skipped.reason)),
    ).toEqual(['a', 'b']);
  });

  it('tells an Open WebUI export from its content', async () => {
    const opened = await readArchive(chunked(JSON.stringify([webui('w')])));
    expect(opened.format).toBe('open-webui');
    expect(await all(opened)).toHaveLength(1);
  });

  it('detects our own account export and reads it a part at a time', async () => {
    const conversation = { format: 'chat-memory.conversation', version: 2, conversation: { title: 'one' } };
    const document = {
      format: 'chat-memory.account',
      version: 1,
      agents: [{ name: 'A' }],
      conversations: [conversation],
      memories: [{ text: 'm' }],
    };
    const opened = await readArchive(chunked(`\ufeff${JSON.stringify(document)}`, 1));
    if (opened.format !== 'chat-memory') throw new Error(opened.format);
    const parts = [];
    for await (const part of opened.parts) parts.push(part);
    expect(parts).toEqual([
      { kind: 'agents', agents: [{ name: 'A' }], notRead: 0 },
      { kind: 'conversation', index: 0, document: conversation },
      { kind: 'memories', memories: [{ text: 'm' }], notRead: 0 },
    ]);
  });

  it('takes NUL out of every text of a conversation (PostgreSQL text cannot hold it)', async () => {
    const nul = '\u0000';
    const conversation = chatGptConversation({
      id: `a${nul}b`,
      title: `Ti${nul}tle`,
      nodes: [
        ['r', null, null],
        ['u', 'r', { role: 'user', text: `he${nul}llo` }],
        ['a', 'u', { role: 'assistant', text: `wor${nul}ld${nul}`, model: `gpt${nul}-4` }],
      ],
    });
    const [entry] = await all(await readArchive(chunked(JSON.stringify([conversation]), 5)));
    if (entry.kind !== 'conversation') throw new Error(entry.skipped.reason);
    expect(JSON.stringify(entry.conversation)).not.toContain('\\u0000');
    expect(entry.conversation.title).toBe('Title');
    expect(entry.conversation.messages.map((m) => [m.content, m.model])).toEqual([
      ['hello', null],
      ['world', 'gpt-4'],
    ]);
  });

  it('an empty array is an empty archive', async () => {
    const opened = await readArchive(chunked('[]'));
    expect(opened.format).toBe('empty');
    expect(await all(opened)).toEqual([]);
  });

  it('still detects the format when the first entries are damaged, and skips them', async () => {
    const opened = await readArchive(chunked(`[17, {"title":"x"}, {not json}, ${JSON.stringify(gpt('ok'))}]`));
    expect(opened.format).toBe('chatgpt');
    const entries = await all(opened);
    expect(entries.map((e) => e.kind)).toEqual(['skipped', 'skipped', 'skipped', 'conversation']);
    expect(entries[2]).toMatchObject({
      kind: 'skipped',
      skipped: { index: 2, reason: expect.stringMatching(/^not valid JSON/) },
    });
  });

  it.each([
    ['not JSON at all', 'hello world', /does not start with "\[" or "\{" but with "h"/],
    ['an empty file', '', /the file is empty/],
    ['an object of another kind', '{"format":"something else"}', /an object without "format": "chat-memory.account"/],
    ['an array of something else', JSON.stringify([{ a: 1 }, [2], 'three']), /first 3 elements are neither ChatGPT/],
  ])('refuses %s, naming what was expected', async (_name, text, detail) => {
    const attempt = readArchive(chunked(text));
    await expect(attempt).rejects.toThrow(UnknownArchiveFormatError);
    await expect(readArchive(chunked(text))).rejects.toThrow(detail);
    await expect(readArchive(chunked(text))).rejects.toThrow(/Expected a ChatGPT conversations\.json/);
  });

  it('an array cut short fails once the conversations before the cut are read', async () => {
    const text = JSON.stringify([gpt('a'), gpt('b')]);
    const opened = await readArchive(chunked(text.slice(0, text.length - 30)));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const entry of (opened as { entries: AsyncIterable<ArchiveEntry> }).entries) seen.push(entry.kind);
      })(),
    ).rejects.toThrow(MalformedArchiveError);
    expect(seen).toEqual(['conversation']);
  });

  it('skips a corrupted entry and an oversized one with their reasons, the rest continues', async () => {
    const broken = gpt('broken');
    delete broken.mapping;
    const big = linearChatGptConversation('big', 50, 500);
    const opened = await readArchive(chunked(JSON.stringify([gpt('a'), broken, big, gpt('c')]), 4096), {
      limits: { maxConversationBytes: 20_000 },
    });
    const entries = await all(opened);
    expect(entries.map((e) => (e.kind === 'conversation' ? e.conversation.sourceId : e.skipped))).toEqual([
      'a',
      {
        index: 1,
        sourceId: 'broken',
        title: 'T broken',
        reason: 'no "mapping" (the message tree) in this conversation',
      },
      {
        index: 2,
        sourceId: 'big',
        title: 'Conversation big',
        reason: expect.stringMatching(/^larger than 20000 bytes \(\d+\): not read$/),
      },
      'c',
    ]);
  });

  it('tells the format from the first keys of a first conversation too large to read, alone in its file or before others', async () => {
    const limits = { maxConversationBytes: 20_000 };
    const bigChat = openWebUiChat({
      id: 'w-big',
      title: 'Huge',
      messages: [{ id: 'u', parentId: null, role: 'user', content: 'x'.repeat(50_000) }],
    });
    const alone = await readArchive(chunked(JSON.stringify([bigChat])), { limits });
    expect(alone.format).toBe('open-webui');
    expect(await all(alone)).toEqual([
      { kind: 'skipped', skipped: expect.objectContaining({ index: 0, sourceId: 'w-big' }) },
    ]);
    const bigGpt = linearChatGptConversation('big', 50, 500);
    const first = await readArchive(chunked(JSON.stringify([bigGpt, bigGpt, gpt('c')])), { limits });
    expect(first.format).toBe('chatgpt');
    expect(
      (await all(first)).map((e) => (e.kind === 'conversation' ? e.conversation.sourceId : e.skipped.index)),
    ).toEqual([0, 1, 'c']);
    // A large first element that is neither still leaves the file unknown.
    await expect(
      readArchive(chunked(JSON.stringify([{ notes: 'x'.repeat(50_000) }])), { limits }),
    ).rejects.toBeInstanceOf(UnknownArchiveFormatError);
  });

  it('names an oversized Open WebUI chat by its id', async () => {
    const big = openWebUiChat({
      id: 'w-big',
      title: 'Huge',
      messages: [{ id: 'u', parentId: null, role: 'user', content: 'x'.repeat(50_000) }],
    });
    const entries = await all(
      await readArchive(chunked(JSON.stringify([webui('w'), big])), { limits: { maxConversationBytes: 20_000 } }),
    );
    expect(entries[1]).toMatchObject({ kind: 'skipped', skipped: { index: 1, sourceId: 'w-big', title: 'Huge' } });
  });

  it('closes the input when the reader stops early', async () => {
    const source = Readable.from([
      Buffer.from(`[${JSON.stringify(gpt('a'))},`),
      Buffer.from(`${JSON.stringify(gpt('b'))}]`),
    ]);
    const opened = await readArchive(source);
    for await (const entry of (opened as { entries: AsyncIterable<ArchiveEntry> }).entries) {
      expect(entry.kind).toBe('conversation');
      break;
    }
    expect(source.destroyed).toBe(true);
  });

  it('lets other work run between two conversations once a slice of work went by', async () => {
    const opened = await readArchive(
      chunked(JSON.stringify(Array.from({ length: 20 }, (_, i) => gpt(`c${i}`))), 1 << 20),
    );
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const ticksAt: number[] = [];
    for await (const _entry of (opened as { entries: AsyncIterable<ArchiveEntry> }).entries) {
      ticksAt.push(ticks);
      // Each conversation costs its consumer more than a slice (storing it, say).
      for (const until = performance.now() + 12; performance.now() < until;);
    }
    running = false;
    // Everything arrived in one chunk: only the reader's own yields let the ticker in.
    for (let i = 1; i < ticksAt.length; i++) expect(ticksAt[i]).toBeGreaterThan(ticksAt[i - 1]);
  });
});

describe('readArchive: a large archive from a file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function gcFunction(): () => void {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  }

  it('reads 50 MB of conversations in bounded memory [slow]', async () => {
    const path = join(dir, 'conversations.json');
    const out = createWriteStream(path);
    const count = 2_200;
    out.write('[\n');
    for (let i = 0; i < count; i++) {
      const conversation =
        i === 1000 ? { title: 'damaged', conversation_id: 'bad' } : linearChatGptConversation(`c${i}`, 20, 200);
      if (!out.write(`${i === 0 ? '' : ',\n'}${JSON.stringify(conversation)}`)) await once(out, 'drain');
    }
    out.end('\n]\n');
    await once(out, 'finish');
    const { size } = await stat(path);
    expect(size).toBeGreaterThan(50 * 1024 * 1024);

    const gc = gcFunction();
    // Buffers live outside the JavaScript heap: count both.
    const used = () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    gc();
    const base = used();
    let peak = 0;
    let retained = 0;
    let read = 0;
    let skipped = 0;
    let messages = 0;
    const started = process.hrtime.bigint();
    const opened = await readArchive(createReadStream(path, { highWaterMark: 64 * 1024 }));
    expect(opened.format).toBe('chatgpt');
    for await (const entry of (opened as { entries: AsyncIterable<ArchiveEntry> }).entries) {
      if (entry.kind === 'conversation') {
        read++;
        messages += entry.conversation.messages.length;
      } else skipped++;
      peak = Math.max(peak, used() - base);
      if ((read + skipped) % 100 === 0) {
        gc();
        retained = Math.max(retained, used() - base);
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    expect({ read, skipped, messages }).toEqual({ read: count - 1, skipped: 1, messages: (count - 1) * 40 });
    // Holding the file would take more than its size in heap (its text alone is 50 MB).
    expect(retained).toBeLessThan(8 * 1024 * 1024);
    expect(peak).toBeLessThan(40 * 1024 * 1024);
    process.stdout.write(
      `archive of ${(size / 1048576).toFixed(1)} MB: ${(size / 1048576 / seconds).toFixed(1)} MB/s, memory growth peak ${(peak / 1048576).toFixed(1)} MB, retained ${(retained / 1048576).toFixed(1)} MB\n`,
    );
  }, 120_000);

  it('keeps no leading spaces while it looks for the first byte (a zip bomb of spaces)', async () => {
    const gc = gcFunction();
    gc();
    const base = process.memoryUsage().arrayBuffers;
    let held = 0;
    async function* spacesThenArray(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(1024 * 1024, 0x20);
      gc();
      held = process.memoryUsage().arrayBuffers - base;
      yield Buffer.from('[]');
    }
    const opened = await readArchive(spacesThenArray());
    expect(opened.format).toBe('empty');
    // Kept, the 64 MiB of spaces would still be there.
    expect(held).toBeLessThan(16 * 1024 * 1024);
    // A byte-order mark cut between two chunks, then spaces, still reads.
    const bom = Readable.from([
      Buffer.from([0xef, 0xbb]),
      Buffer.from([0xbf, 0x20]),
      Buffer.from('  '),
      Buffer.from(JSON.stringify([gpt('after-bom')])),
    ]);
    expect((await readArchive(bom)).format).toBe('chatgpt');
  });
});
