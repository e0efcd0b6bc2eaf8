import { request as httpRequest } from 'node:http';
import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { chatGptConversation, linearChatGptConversation } from '../../../src/portability/archives/archive-builders.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

type Json = Record<string, any>;

/** Far above any stall an import may cause now, far below the seconds these archives held the event loop for. */
const HEALTH_BOUND_MS = 2_000;

const CONVERSATION_EXPORT = { format: 'chat-memory.conversation', version: 2, exportedAt: '2024-01-01T00:00:00.000Z' };

/** A ZIP of one deflated entry of `parts` pieces of text then `end`, compressed as generated (a bomb is small to make). */
function deflated(name: string, parts: number, piece: (i: number) => string, end = ''): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      chunks.push(data);
      if (final) resolve(Buffer.concat(chunks));
    });
    const entry = new ZipDeflate(name, { level: 9 });
    zip.add(entry);
    for (let i = 0; i < parts; i++) entry.push(strToU8(piece(i)));
    entry.push(strToU8(end), true);
    zip.end();
  });
}

describe('POST /api/imports: archives made to be expensive', () => {
  const fixture = useAppWithFakeModel();
  let t: TestApp;
  beforeAll(() => ({ app: t } = fixture));

  /** Posts `body` while GET /health is asked every 10 ms on its own connection: the answer, its size, and the probe's answers. */
  async function importWatched(body: Buffer, type: string, query = '?dryRun=true') {
    const base = await t.url();
    const health: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const t0 = performance.now();
        await new Promise<void>((resolve, reject) =>
          httpRequest(`${base}/health`, { agent: false }, (res) => res.resume().on('end', resolve))
            .on('error', reject)
            .end(),
        );
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const answer = await new Promise<{ status: number; bytes: number; body: Json }>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/imports${query}`,
        { method: 'POST', headers: { ...auth(ALICE_KEY), 'Content-Type': type, 'Content-Length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks);
            resolve({ status: res.statusCode!, bytes: text.length, body: JSON.parse(text.toString()) as Json });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    running = false;
    await probe;
    return { ...answer, health };
  }

  it('our own export of 20,000 invalid conversations with long titles in a small ZIP is refused by its ratio', async () => {
    const title = 'x'.repeat(2_000);
    const items = Array.from({ length: 20_000 }, () => ({ ...CONVERSATION_EXPORT, conversation: { title } }));
    const zip = Buffer.from(
      zipSync({
        'export.json': strToU8(JSON.stringify({ format: 'chat-memory.account', version: 2, conversations: items })),
      }),
    );
    expect(zip.length).toBeLessThan(200_000);
    const { status, bytes, body, health } = await importWatched(zip, 'application/zip');
    expect(status).toBe(413);
    expect(body.code).toBe('archive_unzipped_too_large');
    expect(bytes).toBeLessThan(2_000);
    expect(Math.max(0, ...health)).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('our own export of 3,000 invalid conversations with long titles: a bounded report (counts, the first 100 reasons, titles cut)', async () => {
    const items = Array.from({ length: 3_000 }, (_, i) => ({
      ...CONVERSATION_EXPORT,
      conversation: { id: `${i}`.repeat(500), title: `${i} `.repeat(400) },
    }));
    const { status, bytes, body, health } = await importWatched(
      Buffer.from(JSON.stringify({ format: 'chat-memory.account', version: 2, conversations: items })),
      'application/json',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ format: 'chat-memory', importedCount: 0, imported: [], skippedCount: 3_000 });
    expect(body.skipped).toHaveLength(100);
    expect(body.skipped[99].index).toBe(99);
    for (const s of body.skipped) {
      expect(s.title.length).toBeLessThanOrEqual(200);
      expect(s.sourceId.length).toBeLessThanOrEqual(200);
    }
    expect(bytes).toBeLessThan(200_000);
    expect(Math.max(0, ...health)).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('our own export as plain JSON (1.6 MB of conversations to check): read a conversation at a time, /health answered meanwhile', async () => {
    const items = Array.from({ length: 12_000 }, (_, i) => ({
      ...CONVERSATION_EXPORT,
      conversation: { title: `t${i}`, messages: [] },
    }));
    const body = Buffer.from(JSON.stringify({ format: 'chat-memory.account', version: 2, conversations: items }));
    const answer = await importWatched(body, 'application/json');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ format: 'chat-memory', importedCount: 0, skippedCount: 12_000 });
    expect(answer.body.skipped).toHaveLength(100);
    expect(answer.bytes).toBeLessThan(200_000);
    expect(answer.health.length).toBeGreaterThan(1);
    expect(Math.max(...answer.health)).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('a whitespace bomb (conversations.json of 64 MB of spaces, 64 KB zipped) is refused from its first slices, far below the unzipped limit', async () => {
    const zip = await deflated('conversations.json', 64, (i) => (i === 0 ? '[' : ' ') + ' '.repeat(1024 * 1024 - 1));
    const { status, body, health } = await importWatched(zip, 'application/zip');
    expect(status).toBe(413);
    expect(body).toMatchObject({
      code: 'archive_unzipped_too_large',
      message: expect.stringMatching(/more than 100 times its compressed size/),
    });
    expect(Math.max(0, ...health)).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('millions of tiny conversations in a few kilobytes of ZIP are refused by the ratio, not read for a minute', async () => {
    const zip = await deflated(
      'conversations.json',
      3,
      (i) => (i === 0 ? `[${JSON.stringify(linearChatGptConversation('c1', 1))}` : '') + ',{}'.repeat(1_000_000),
      ']',
    );
    expect(zip.length).toBeLessThan(50_000);
    const { status, body, health } = await importWatched(zip, 'application/zip');
    expect(status).toBe(413);
    expect(body.code).toBe('archive_unzipped_too_large');
    expect(Math.max(0, ...health)).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('more conversations than one import reads is a 413 that says so, when the reading gets there', async () => {
    const json = Buffer.from(`[${JSON.stringify(linearChatGptConversation('c1', 1))}${',{}'.repeat(100_000)}]`);
    const { status, body, health } = await importWatched(json, 'application/json');
    expect(status).toBe(413);
    expect(body).toMatchObject({
      code: 'archive_too_many_conversations',
      message: expect.stringMatching(/more than 100000 conversations/),
    });
    expect(Math.max(0, ...health)).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('NUL in an archive (ZIP): every conversation imported without it (PostgreSQL too), and each exports and imports back', async () => {
    const nul = '\u0000';
    const conversations = [1, 2, 3].map((i) =>
      chatGptConversation({
        id: `nul-${i}`,
        title: `Nul${nul} ${i}`,
        nodes: [
          ['r', null, null],
          ['u', 'r', { role: 'user', text: `ques${nul}tion ${i}` }],
          ['a', 'u', { role: 'assistant', text: `ans${nul}wer ${i}`, model: `gpt${nul}-4o` }],
        ],
      }),
    );
    const zip = Buffer.from(zipSync({ 'conversations.json': strToU8(JSON.stringify(conversations)) }));
    const dry = await importWatched(zip, 'application/zip');
    expect(dry.body).toMatchObject({ importedCount: 3, skippedCount: 0 });
    const { status, body } = await importWatched(zip, 'application/zip', '');
    expect(status).toBe(200);
    expect(body).toMatchObject({ importedCount: 3, skippedCount: 0 });
    for (const [i, imported] of (body.imported as Json[]).entries()) {
      const detail = (await t.http().get(`/api/conversations/${imported.id}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(detail.title).toBe(`Nul ${i + 1}`);
      expect(detail.messages.map((m: Json) => m.content)).toEqual([`question ${i + 1}`, `answer ${i + 1}`]);
      const exported = (await t.http().get(`/api/conversations/${imported.id}/export`).set(auth(ALICE_KEY)).expect(200))
        .body;
      expect(JSON.stringify(exported)).not.toContain('\\u0000');
      await t.http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(exported).expect(201);
    }
  });

  it('NUL in our own export: its conversation is imported without it', async () => {
    const doc = {
      ...CONVERSATION_EXPORT,
      conversation: {
        title: 'Own\u0000 export',
        createdAt: '2024-01-01T00:00:00.000Z',
        updatedAt: '2024-01-01T00:00:00.000Z',
        messages: [
          {
            seq: 1,
            thread: 'main',
            role: 'user',
            content: 'hel\u0000lo',
            status: 'complete',
            createdAt: '2024-01-01T00:00:00.000Z',
          },
          {
            seq: 2,
            thread: 'main',
            role: 'assistant',
            content: 'hi\u0000',
            status: 'complete',
            createdAt: '2024-01-01T00:00:01.000Z',
          },
        ],
      },
    };
    const { status, body } = await importWatched(
      Buffer.from(JSON.stringify({ ...doc, version: 1 })),
      'application/json',
      '',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ format: 'chat-memory', importedCount: 1, skippedCount: 0 });
    const detail = (await t.http().get(`/api/conversations/${body.imported[0].id}`).set(auth(ALICE_KEY)).expect(200))
      .body;
    expect([detail.title, ...detail.messages.map((m: Json) => m.content)]).toEqual(['Own export', 'hello', 'hi']);
  });
});
