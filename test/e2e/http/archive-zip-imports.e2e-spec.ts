import { randomBytes } from 'node:crypto';
import { strToU8, Zip, ZipDeflate, zipSync, type Zippable } from 'fflate';
import {
  chatGptConversation,
  linearChatGptConversation,
  openWebUiChat,
} from '../../../src/portability/archives/archive-builders.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';

type Json = Record<string, any>;

const BODY_LIMIT = 1024 * 1024;
const UNZIPPED_LIMIT = 2 * 1024 * 1024;

const json = (value: unknown) => strToU8(JSON.stringify(value));

/** The shape of ChatGPT's data export: side files first (feedback looks like conversations), the archive in a folder, images. */
function chatGptExport(conversations: unknown[]): Zippable {
  return {
    'export/chat.html': strToU8('<html>…</html>'),
    'export/user.json': json({ id: 'user-1', email: 'ann@example.com' }),
    'export/message_feedback.json': json([
      { id: 'f1', conversation_id: 'gpt-z1', user_id: 'user-1', rating: 'thumbsUp', create_time: '2024-01-01' },
    ]),
    'export/conversations.json': json(conversations),
    'export/file-abc.png': [new Uint8Array(50_000).fill(7), { level: 0 }],
  };
}

/** A byte of `zip` changed: its local header of `name` gets `patch` applied. */
function patchLocalHeader(zip: Uint8Array, name: string, patch: (header: Buffer) => void): Buffer {
  const bytes = Buffer.from(zip);
  const at = bytes.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]), 0);
  for (let i = at; i >= 0; i = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), i + 1)) {
    const length = bytes.readUInt16LE(i + 26);
    if (bytes.subarray(i + 30, i + 30 + length).toString() === name) {
      patch(bytes.subarray(i));
      return bytes;
    }
  }
  throw new Error(`no entry ${name}`);
}

/** A ZIP written as a stream (sizes in data descriptors after each entry), as zip tools on a pipe and macOS do. */
function streamedZip(files: Record<string, Uint8Array>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = [];
    const zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      parts.push(data);
      if (final) resolve(Buffer.concat(parts));
    });
    for (const [name, data] of Object.entries(files)) {
      const entry = new ZipDeflate(name, { level: 6 });
      zip.add(entry);
      entry.push(data, true);
    }
    zip.end();
  });
}

describe('POST /api/imports with a ZIP archive', () => {
  const fixture = useAppWithFakeModel({
    IMPORT_BODY_LIMIT_BYTES: String(BODY_LIMIT),
    IMPORT_UNZIPPED_LIMIT_BYTES: String(UNZIPPED_LIMIT),
  });
  const http = () => fixture.app.http();
  const upload = (body: Uint8Array, type = 'application/zip', query = '') =>
    http().post(`/api/imports${query}`).set(auth(ALICE_KEY)).set('Content-Type', type).send(Buffer.from(body));
  const count = async () =>
    (await http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200)).body.items.length as number;

  it('reads conversations.json out of ChatGPT’s export, passing over its other files, as application/zip and in a dry run', async () => {
    const zip = zipSync(
      chatGptExport([linearChatGptConversation('gpt-z1', 2), linearChatGptConversation('gpt-z2', 1)]),
    );
    const before = await count();
    const dry = (await upload(zip, 'application/zip', '?dryRun=true').expect(200)).body;
    expect(dry).toMatchObject({ format: 'chatgpt', dryRun: true, zipEntry: 'export/conversations.json', skipped: [] });
    expect(await count()).toBe(before);
    const report = (await upload(zip).expect(200)).body;
    expect(report).toMatchObject({
      format: 'chatgpt',
      dryRun: false,
      zipEntry: 'export/conversations.json',
      skipped: [],
    });
    expect(report.imported.map((c: Json) => [c.sourceId, c.messages])).toEqual([
      ['gpt-z1', 4],
      ['gpt-z2', 2],
    ]);
    expect(await count()).toBe(before + 2);
    const detail = (await http().get(`/api/conversations/${report.imported[0].id}`).set(auth(ALICE_KEY)).expect(200))
      .body;
    expect(detail.messages).toHaveLength(4);
  });

  it('tells a ZIP by its first bytes when sent as application/octet-stream, reading its single .json (an Open WebUI export)', async () => {
    const chat = openWebUiChat({
      id: 'owui-z',
      title: 'Zipped llamas',
      messages: [
        { id: 'q1', parentId: null, role: 'user', content: 'hi', timestamp: 1_710_000_001 },
        { id: 'b1', parentId: 'q1', role: 'assistant', content: 'baa', timestamp: 1_710_000_002 },
      ],
    });
    // macOS adds a resource fork beside each file: not an archive, passed over.
    const zip = zipSync({
      '__MACOSX/._chat-export.json': new Uint8Array([0, 5, 22, 7]),
      'chat-export.json': json([chat]),
    });
    const report = (await upload(zip, 'application/octet-stream').expect(200)).body;
    expect(report).toMatchObject({
      format: 'open-webui',
      zipEntry: 'chat-export.json',
      imported: [{ sourceId: 'owui-z', title: 'Zipped llamas', messages: 2 }],
    });
  });

  it('reads a ZIP written as a stream (sizes after the data), its entry over many reads', async () => {
    // Titles that do not compress: the entry spans many reads of the upload.
    const conversations = Array.from({ length: 60 }, (_, i) => ({
      ...linearChatGptConversation(`gpt-s${i}`, 2, 2_000),
      title: randomBytes(1500).toString('base64'),
    }));
    const zip = await streamedZip({ 'readme.txt': strToU8('hello'), 'conversations.json': json(conversations) });
    expect(zip.length).toBeGreaterThan(64 * 1024);
    const report = (await upload(zip, 'application/zip', '?dryRun=true').expect(200)).body;
    expect(report).toMatchObject({ format: 'chatgpt', zipEntry: 'conversations.json', skipped: [] });
    expect(report.imported).toHaveLength(60);
  });

  it('refuses an entry that decompresses past IMPORT_UNZIPPED_LIMIT_BYTES (a zip bomb) with 413, the body within its own limit', async () => {
    // Words in a random order compress about as well as real text: the ratio check passes, the limit stops it.
    const words = [
      'lorem',
      'ipsum',
      'dolor',
      'sit',
      'amet',
      'consectetur',
      'adipiscing',
      'elit',
      'sed',
      'do',
      'eiusmod',
      'tempor',
      'incididunt',
      'ut',
      'labore',
      'magna',
    ];
    let seed = 1;
    const text = Array.from(
      { length: 500_000 },
      () => words[((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % words.length],
    ).join(' ');
    const conversation = chatGptConversation({
      id: 'gpt-bomb',
      nodes: [
        ['r', null, null],
        ['u', 'r', { role: 'user', text }],
      ],
    });
    const bomb = zipSync({ 'conversations.json': json([conversation]) }, { level: 9 });
    expect(bomb.length).toBeLessThan(BODY_LIMIT);
    const res = await upload(bomb).expect(413);
    expect(res.body).toMatchObject({ statusCode: 413, code: 'archive_unzipped_too_large', imported: [] });
    expect(res.body.message).toMatch(/IMPORT_UNZIPPED_LIMIT_BYTES/);
  });

  it('answers 400 archive_zip_without_conversations naming what was expected for a ZIP without an archive', async () => {
    const zip = zipSync({
      'export/chat.html': strToU8('<html></html>'),
      'export/user.json': json({ id: 'u' }),
      'notes.json': json({ hello: 'world' }),
    });
    const res = await upload(zip).expect(400);
    expect(res.body).toMatchObject({ code: 'archive_zip_without_conversations' });
    expect(res.body.message).toMatch(/"notes\.json".*Expected conversations\.json/);
    const images = await upload(zipSync({ 'a.png': new Uint8Array(10) })).expect(400);
    expect(images.body.message).toMatch(/no \.json file/);
    // An empty ZIP is only its end record.
    expect((await upload(zipSync({})).expect(400)).body.code).toBe('archive_zip_without_conversations');
  });

  it('answers 400 archive_zip_invalid for a damaged, a cut or a fake ZIP, storing nothing', async () => {
    const before = await count();
    const zip = zipSync({ 'conversations.json': json([linearChatGptConversation('gpt-bad', 50, 500)]) });
    const damaged = Buffer.from(zip);
    // Garbage where the compressed data starts: the deflate stream cannot be decoded.
    damaged.fill(0xff, 30 + 'conversations.json'.length, 30 + 'conversations.json'.length + 64);
    expect((await upload(damaged).expect(400)).body).toMatchObject({ code: 'archive_zip_invalid' });
    expect((await upload(zip.subarray(0, Math.floor(zip.length / 2))).expect(400)).body).toMatchObject({
      code: 'archive_zip_invalid',
    });
    const fake = await upload(json([linearChatGptConversation('gpt-json', 1)]), 'application/zip').expect(400);
    expect(fake.body).toMatchObject({ code: 'archive_zip_invalid', message: expect.stringMatching(/ZIP/) });
    expect(await count()).toBe(before);
  });

  it('answers 400 archive_zip_invalid for an entry whose CRC-32 does not match its data, in its header or after it (a streamed ZIP), storing nothing', async () => {
    const before = await count();
    const body = json([linearChatGptConversation('gpt-crc', 2)]);
    const wrongCrc = (h: Buffer) => h.writeUInt32LE((h.readUInt32LE(14) ^ 0x5a5a5a5a) >>> 0, 14);
    for (const level of [6, 0] as const) {
      const zip = zipSync({ 'conversations.json': [body, { level }] });
      const res = await upload(patchLocalHeader(zip, 'conversations.json', wrongCrc)).expect(400);
      expect(res.body).toMatchObject({
        code: 'archive_zip_invalid',
        message: expect.stringMatching(/"conversations\.json".*CRC-32/),
      });
    }
    const streamed = await streamedZip({ 'readme.txt': strToU8('hello'), 'conversations.json': body });
    const header = streamed.indexOf(Buffer.from('conversations.json'));
    const descriptor = streamed.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]), header);
    expect(descriptor).toBeGreaterThan(header);
    const damaged = Buffer.from(streamed);
    damaged.writeUInt32LE((damaged.readUInt32LE(descriptor + 4) ^ 0x5a5a5a5a) >>> 0, descriptor + 4);
    expect((await upload(damaged, 'application/zip', '?dryRun=true').expect(400)).body).toMatchObject({
      code: 'archive_zip_invalid',
      message: expect.stringMatching(/CRC-32/),
    });
    expect((await upload(damaged).expect(400)).body).toMatchObject({ code: 'archive_zip_invalid' });
    expect(await count()).toBe(before);
    // The same ZIPs intact import.
    expect((await upload(streamed, 'application/zip', '?dryRun=true').expect(200)).body.importedCount).toBe(1);
    expect(
      (
        await upload(zipSync({ 'conversations.json': [body, { level: 0 }] }), 'application/zip', '?dryRun=true').expect(
          200,
        )
      ).body.importedCount,
    ).toBe(1);
  });

  it('answers 400 archive_zip_unsupported for an encrypted entry or another compression method', async () => {
    const zip = zipSync({ 'conversations.json': json([linearChatGptConversation('gpt-enc', 1)]) });
    const encrypted = patchLocalHeader(zip, 'conversations.json', (h) => h.writeUInt16LE(h.readUInt16LE(6) | 1, 6));
    const res = await upload(encrypted).expect(400);
    expect(res.body).toMatchObject({
      code: 'archive_zip_unsupported',
      message: expect.stringMatching(/"conversations\.json" is encrypted/),
    });
    const bzip2 = patchLocalHeader(zip, 'conversations.json', (h) => h.writeUInt16LE(12, 8));
    expect((await upload(bzip2).expect(400)).body).toMatchObject({
      code: 'archive_zip_unsupported',
      message: expect.stringMatching(/method 12/),
    });
  });

  it('still refuses a compressed body over IMPORT_BODY_LIMIT_BYTES with 413 archive_too_large, and another type with 415', async () => {
    const big = zipSync({
      'conversations.json': json([]),
      'noise.bin': [Buffer.alloc(BODY_LIMIT + 1, 1), { level: 0 }],
    });
    expect((await upload(big).expect(413)).body).toMatchObject({ code: 'archive_too_large' });
    await upload(zipSync({ 'conversations.json': json([]) }), 'application/gzip').expect(415);
    expect(
      (await upload(zipSync({ 'conversations.json': json([]) }), 'application/x-zip-compressed').expect(200)).body,
    ).toMatchObject({ format: 'empty' });
  });
});
