import { request as httpRequest } from 'node:http';
import {
  chatGptConversation,
  linearChatGptConversation,
  openWebUiChat,
  type GptNode,
} from '../../../src/portability/archives/archive-builders.js';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';

type Json = Record<string, any>;

const LIMIT = 1024 * 1024;

/** A ChatGPT conversation with custom instructions, an edited question and a regenerated answer; the user was last on the older question. */
function branchyChatGpt(id: string): Record<string, unknown> {
  const nodes: GptNode[] = [
    ['root', null, null],
    ['sys', 'root', { role: 'system', text: '', hidden: true }],
    [
      'ctx',
      'sys',
      {
        role: 'user',
        hidden: true,
        content: { content_type: 'user_editable_context', user_profile: 'I am Ann.', user_instructions: 'Be brief.' },
      },
    ],
    ['u1', 'ctx', { role: 'user', text: 'hello', time: 1_700_000_001 }],
    ['a1', 'u1', { role: 'assistant', text: 'hi there', time: 1_700_000_002, model: 'gpt-4o' }],
    ['u2', 'a1', { role: 'user', text: 'first version', time: 1_700_000_003 }],
    ['a2', 'u2', { role: 'assistant', text: 'answer one', time: 1_700_000_004, model: 'gpt-4o' }],
    ['a2r', 'u2', { role: 'assistant', text: 'answer one, again', time: 1_700_000_005, model: 'o1' }],
    ['u2e', 'a1', { role: 'user', text: 'edited version', time: 1_700_000_006 }],
    [
      'a2e',
      'u2e',
      { role: 'assistant', text: 'answer two', time: 1_700_000_007, model: 'gpt-4o', status: 'in_progress' },
    ],
  ];
  return chatGptConversation({ id, title: 'Branchy', currentNode: 'a2', nodes });
}

describe('POST /api/imports: archives of other tools as conversation trees', () => {
  const fixture = useAppWithFakeModel({ IMPORT_BODY_LIMIT_BYTES: String(LIMIT) });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  beforeAll(() => ({ fake, app: t } = fixture));

  const http = () => t.http();
  const upload = (body: unknown, key = ALICE_KEY, query = '', type = 'application/json') =>
    http()
      .post(`/api/imports${query}`)
      .set(auth(key))
      .set('Content-Type', type)
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const count = async (key = ALICE_KEY) =>
    (await http().get('/api/conversations?limit=100').set(auth(key)).expect(200)).body.items.length as number;

  it('imports a ChatGPT archive with its branches: the active path is current_node’s, /tree has every branch, the next turn continues there', async () => {
    const report = (await upload([branchyChatGpt('gpt-1')]).expect(200)).body;
    expect(report).toMatchObject({ format: 'chatgpt', dryRun: false, skipped: [], agentsNotImported: 0 });
    expect(report.imported).toEqual([
      { id: expect.any(String), sourceId: 'gpt-1', title: 'Branchy', messages: 7, branches: 2 },
    ]);
    const id = report.imported[0].id as string;

    const detail = (await http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body;
    expect(detail.title).toBe('Branchy');
    expect(detail.messages.map((m: Json) => [m.role, m.content, m.model])).toEqual([
      ['user', 'hello', null],
      ['assistant', 'hi there', 'gpt-4o'],
      ['user', 'first version', null],
      ['assistant', 'answer one', 'gpt-4o'],
    ]);
    expect(detail.messages[0].createdAt).toBe(new Date(1_700_000_001_000).toISOString());
    expect(detail.messages[2]).toMatchObject({ siblingCount: 2, siblingIndex: 0 });
    expect(detail.messages[3]).toMatchObject({ siblingCount: 2, siblingIndex: 0 });

    const tree = (await http().get(`/api/conversations/${id}/tree?limit=100`).set(auth(ALICE_KEY)).expect(200)).body
      .items as Json[];
    expect(tree).toHaveLength(7);
    const byContent = new Map(tree.map((m) => [m.content, m]));
    expect(byContent.get('answer one, again')).toMatchObject({
      parentId: byContent.get('first version')!.id,
      onPath: false,
      model: 'o1',
    });
    expect(byContent.get('edited version')).toMatchObject({ parentId: byContent.get('hi there')!.id, onPath: false });
    // An interrupted reply keeps its text, not complete.
    expect(byContent.get('answer two')).toMatchObject({ status: 'cancelled', onPath: false });

    fake.enqueue({ kind: 'reply', text: 'next' });
    const turn = (
      await http().post('/api/chat').set(auth(ALICE_KEY)).send({ conversationId: id, message: 'and then?' }).expect(200)
    ).body;
    expect(turn.reply).toBe('next');
    // The custom instructions are the thread's system prompt; the history is the active path only.
    expect(fake.lastCompletion.body.messages!.map((m) => [m.role, m.content])).toEqual([
      ['system', 'I am Ann.\n\nBe brief.'],
      ['user', 'hello'],
      ['assistant', 'hi there'],
      ['user', 'first version'],
      ['assistant', 'answer one'],
      ['user', 'and then?'],
    ]);
  });

  it('imports an Open WebUI export, its system prompt and its active message', async () => {
    const chat = openWebUiChat({
      id: 'owui-1',
      title: 'Llamas',
      system: 'You are a llama.',
      currentId: 'b2',
      messages: [
        { id: 'q1', parentId: null, role: 'user', content: 'hi', timestamp: 1_710_000_001 },
        { id: 'b1', parentId: 'q1', role: 'assistant', content: 'baa', timestamp: 1_710_000_002 },
        { id: 'b2', parentId: 'q1', role: 'assistant', content: 'BAA', timestamp: 1_710_000_003 },
      ],
    });
    const report = (await upload([chat]).expect(200)).body;
    expect(report).toMatchObject({
      format: 'open-webui',
      imported: [{ sourceId: 'owui-1', title: 'Llamas', messages: 3, branches: 1 }],
      skipped: [],
    });
    const detail = (await http().get(`/api/conversations/${report.imported[0].id}`).set(auth(ALICE_KEY)).expect(200))
      .body;
    expect(detail.messages.map((m: Json) => [m.content, m.model])).toEqual([
      ['hi', null],
      ['BAA', 'llama3.1:8b'],
    ]);
    fake.enqueue({ kind: 'reply', text: 'ok' });
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: detail.id, message: 'more' })
      .expect(200);
    expect(fake.lastCompletion.body.messages!.map((m) => m.content)).toEqual(['You are a llama.', 'hi', 'BAA', 'more']);
  });

  it('skips a corrupted entry with its reason and imports the rest; leaves nothing of it behind', async () => {
    const before = await count();
    const broken = chatGptConversation({
      id: 'gpt-broken',
      title: 'Broken',
      nodes: [['u', 'nowhere', { role: 'user', text: 'orphan' }]],
    });
    const report = (
      await upload([
        linearChatGptConversation('gpt-a', 2),
        broken,
        { title: 'no mapping', conversation_id: 'gpt-none', create_time: 1 },
        linearChatGptConversation('gpt-b', 1),
      ]).expect(200)
    ).body;
    expect(report.imported.map((c: Json) => c.sourceId)).toEqual(['gpt-a', 'gpt-b']);
    expect(report.skipped).toEqual([
      { index: 1, sourceId: 'gpt-broken', title: 'Broken', reason: expect.any(String) },
      { index: 2, sourceId: 'gpt-none', title: 'no mapping', reason: expect.stringMatching(/mapping/) },
    ]);
    expect(await count()).toBe(before + 2);
  });

  it('dryRun=true answers the same report with null ids and stores nothing', async () => {
    const before = await count();
    const archive = [linearChatGptConversation('gpt-dry', 3), branchyChatGpt('gpt-dry-2')];
    const report = (await upload(archive, ALICE_KEY, '?dryRun=true').expect(200)).body;
    expect(report).toMatchObject({ format: 'chatgpt', dryRun: true, skipped: [] });
    expect(report.imported).toEqual([
      { id: null, sourceId: 'gpt-dry', title: 'Conversation gpt-dry', messages: 6, branches: 0 },
      { id: null, sourceId: 'gpt-dry-2', title: 'Branchy', messages: 7, branches: 2 },
    ]);
    expect(await count()).toBe(before);
    await upload([], ALICE_KEY, '?dryRun=maybe').expect(400);
  });

  it('answers 400 naming the formats for a file that is none of them, and 415 for another content type', async () => {
    const res = await upload([{ hello: 'world' }]).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'archive_format_unknown', imported: [] });
    expect(res.body.message).toMatch(/ChatGPT conversations\.json.*Open WebUI.*chat-memory/);
    expect((await upload('not json at all').expect(400)).body.code).toBe('archive_format_unknown');
    expect((await upload('[{"mapping": {}, ').expect(400)).body.code).toBe('archive_malformed');
    await upload('[]', ALICE_KEY, '', 'text/plain').expect(415);
    expect((await upload('[]', ALICE_KEY, '', 'application/octet-stream').expect(200)).body).toMatchObject({
      format: 'empty',
      imported: [],
      skipped: [],
    });
  });

  it('refuses a file over IMPORT_BODY_LIMIT_BYTES with 413, announced or counted as it comes, and the caller without a key unread', async () => {
    const big = JSON.stringify([linearChatGptConversation('gpt-big', 1, LIMIT + 10)]);
    const res = await upload(big).expect(413);
    expect(res.body).toMatchObject({ code: 'archive_too_large' });
    await http().post('/api/imports').set('Content-Type', 'application/json').send(big).expect(401);
    // Chunked: no Content-Length, so the route counts; the conversation before the limit is stored and named.
    const url = new URL(`${await t.url()}/api/imports`);
    const answer = await new Promise<{ status: number; body: Json }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: { ...auth(ALICE_KEY), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Json }));
        },
      );
      req.on('error', reject);
      req.write(`[${JSON.stringify(linearChatGptConversation('gpt-small', 1))}`);
      const pad = `,${JSON.stringify(linearChatGptConversation('gpt-pad', 1, 64 * 1024))}`;
      const write = (n: number): void => {
        if (n === 0 || req.destroyed) return void req.end(']');
        if (req.write(pad)) setImmediate(() => write(n - 1));
        else req.once('drain', () => write(n - 1));
      };
      write(Math.ceil((LIMIT * 1.5) / pad.length));
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'archive_too_large' });
    expect(answer.body.imported[0]).toMatchObject({ sourceId: 'gpt-small' });
  });

  it('imports into the caller’s account only', async () => {
    const bobBefore = await count(BOB_KEY);
    const report = (await upload([linearChatGptConversation('gpt-alice', 1)]).expect(200)).body;
    const id = report.imported[0].id as string;
    await http().get(`/api/conversations/${id}`).set(auth(BOB_KEY)).expect(404);
    expect(await count(BOB_KEY)).toBe(bobBefore);
  });

  it('imports an account export back in one go, each conversation through the conversation importer, with its agent', async () => {
    const agent = (
      await http().post('/api/agents').set(auth(BOB_KEY)).send({ name: 'Helper', systemPrompt: 'Help.' }).expect(201)
    ).body;
    fake.enqueue({ kind: 'reply', text: 'r1' });
    await http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'first', agentId: agent.id }).expect(200);
    const exported = (await http().get('/api/me/export').set(auth(BOB_KEY)).expect(200)).body;
    const before = await count();
    const report = (await upload(exported, ALICE_KEY, '?agents=true').expect(200)).body;
    expect(report).toMatchObject({
      format: 'chat-memory',
      agentsNotImported: 0,
      skipped: [],
      agents: [{ sourceId: agent.id, name: 'Helper', outcome: 'created', id: expect.any(String) }],
    });
    expect(report.imported).toHaveLength(exported.conversations.length);
    expect(await count()).toBe(before + exported.conversations.length);
    const detail = (await http().get(`/api/conversations/${report.imported[0].id}`).set(auth(ALICE_KEY)).expect(200))
      .body;
    expect(detail.messages.map((m: Json) => m.content)).toEqual(['first', 'r1']);
    expect(detail.agentId).toBe(report.agents[0].id);
  });
});

describe('POST /api/imports under quotas', () => {
  const fixture = useAppWithFakeModel({ MAX_CONVERSATIONS_PER_ACTOR: '2', MAX_MESSAGES_PER_CONVERSATION: '6' });
  const upload = (body: unknown, query = '') =>
    fixture.app
      .http()
      .post(`/api/imports${query}`)
      .set(auth(ALICE_KEY))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  it('skips a conversation over MAX_MESSAGES_PER_CONVERSATION or with a question over MAX_MESSAGE_CHARS, and the rest once MAX_CONVERSATIONS_PER_ACTOR is reached, with the reason', async () => {
    const archive = [
      linearChatGptConversation('q-1', 1),
      linearChatGptConversation('q-long', 4),
      linearChatGptConversation('q-wordy', 1, 33_000),
      linearChatGptConversation('q-2', 1),
      linearChatGptConversation('q-3', 1),
      linearChatGptConversation('q-4', 1),
    ];
    const dry = (await upload(archive, '?dryRun=true').expect(200)).body;
    const report = (await upload(archive).expect(200)).body;
    for (const r of [dry, report]) {
      expect(r.imported.map((c: Json) => c.sourceId)).toEqual(['q-1', 'q-2']);
      expect(r.skipped.map((s: Json) => [s.sourceId, s.reason])).toEqual([
        ['q-long', expect.stringMatching(/MAX_MESSAGES_PER_CONVERSATION/)],
        [
          'q-wordy',
          expect.stringMatching(/^message u0 has 33012 characters; the limit is 32000 \(MAX_MESSAGE_CHARS\)$/),
        ],
        ['q-3', expect.stringMatching(/MAX_CONVERSATIONS_PER_ACTOR/)],
        ['q-4', expect.stringMatching(/MAX_CONVERSATIONS_PER_ACTOR/)],
      ]);
    }
    const items = (await fixture.app.http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200)).body
      .items as Json[];
    expect(items.map((c) => c.title).sort()).toEqual(['Conversation q-1', 'Conversation q-2']);
  });
});

describe('POST /api/imports with a first conversation over 4 MiB', () => {
  const fixture = useAppWithFakeModel({ IMPORT_BODY_LIMIT_BYTES: String(32 * 1024 * 1024) });
  const upload = (body: unknown, query = '') =>
    fixture.app
      .http()
      .post(`/api/imports${query}`)
      .set(auth(ALICE_KEY))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const big = 'x'.repeat(4.5 * 1024 * 1024);

  it('tells the format from the start of a conversation too large to read: it is skipped with that reason, the rest imports', async () => {
    const gpt = (
      await upload(
        [linearChatGptConversation('gpt-huge', 1, big.length), linearChatGptConversation('gpt-small', 1)],
        '?dryRun=true',
      ).expect(200)
    ).body;
    expect(gpt).toMatchObject({ format: 'chatgpt', importedCount: 1, skippedCount: 1 });
    expect(gpt.skipped[0]).toMatchObject({
      index: 0,
      sourceId: 'gpt-huge',
      title: 'Conversation gpt-huge',
      reason: expect.stringMatching(/^larger than 4194304 bytes/),
    });

    // Alone in its file (an Open WebUI chat exported on its own is an array of one), and ten of them before any other.
    const chat = (id: string, content: string) =>
      openWebUiChat({
        id,
        title: `Chat ${id}`,
        messages: [
          { id: 'm1', parentId: null, role: 'user', content },
          { id: 'm2', parentId: 'm1', role: 'assistant', content: 'ok' },
        ],
      });
    const alone = (await upload([chat('owu-huge', big)], '?dryRun=true').expect(200)).body;
    expect(alone).toMatchObject({
      format: 'open-webui',
      importedCount: 0,
      skippedCount: 1,
      skipped: [expect.objectContaining({ sourceId: 'owu-huge' })],
    });
    const gptAlone = (await upload([linearChatGptConversation('gpt-huge', 1, big.length)]).expect(200)).body;
    expect(gptAlone).toMatchObject({ format: 'chatgpt', importedCount: 0, skippedCount: 1 });
  });
});

describe('POST /api/imports again: what is already there is not made twice', () => {
  const fixture = useAppWithFakeModel();
  const http = () => fixture.app.http();
  const upload = (body: unknown, key = ALICE_KEY, query = '') =>
    http()
      .post(`/api/imports${query}`)
      .set(auth(key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const ids = async (key: string) =>
    ((await http().get('/api/conversations?limit=100').set(auth(key)).expect(200)).body.items as Json[]).map(
      (c) => c.id as string,
    );
  const alreadyImported = (report: Json) =>
    (report.skipped as Json[]).filter((s) => s.code === 'already_imported').map((s) => s.sourceId);

  it('skips the conversations of a newer cumulative ChatGPT export that were imported before, in a dry run too, and takes the new ones', async () => {
    const first = (
      await upload([linearChatGptConversation('again-a', 1), linearChatGptConversation('again-b', 2)]).expect(200)
    ).body;
    expect(first.importedCount).toBe(2);
    const before = await ids(ALICE_KEY);

    const cumulative = [
      linearChatGptConversation('again-a', 1),
      linearChatGptConversation('again-b', 2),
      linearChatGptConversation('again-c', 1),
    ];
    const dry = (await upload(cumulative, ALICE_KEY, '?dryRun=true').expect(200)).body;
    expect(dry.imported.map((c: Json) => c.sourceId)).toEqual(['again-c']);
    expect(alreadyImported(dry)).toEqual(['again-a', 'again-b']);
    expect(dry.skipped[0]).toMatchObject({
      index: 0,
      title: 'Conversation again-a',
      reason: expect.stringContaining(first.imported[0].id),
    });

    const second = (await upload(cumulative).expect(200)).body;
    expect(second.imported.map((c: Json) => c.sourceId)).toEqual(['again-c']);
    expect(alreadyImported(second)).toEqual(['again-a', 'again-b']);
    expect((await ids(ALICE_KEY)).sort()).toEqual([...before, second.imported[0].id].sort());

    // Per actor: another account imports the same file whole.
    expect((await upload(cumulative, BOB_KEY).expect(200)).body.importedCount).toBe(3);

    // A conversation deleted since is imported again.
    await http().delete(`/api/conversations/${first.imported[0].id}`).set(auth(ALICE_KEY)).expect(204);
    const third = (await upload(cumulative).expect(200)).body;
    expect(third.imported.map((c: Json) => c.sourceId)).toEqual(['again-a']);
    expect(alreadyImported(third)).toEqual(['again-b', 'again-c']);
  });

  it('adds the messages a known conversation gained since (by their ids in the file), continuing its active path', async () => {
    const first = (await upload([linearChatGptConversation('grow', 1)]).expect(200)).body;
    const id = first.imported[0].id as string;
    const grown = [linearChatGptConversation('grow', 3)];
    const dry = (await upload(grown, ALICE_KEY, '?dryRun=true').expect(200)).body;
    expect(dry.imported).toEqual([
      { id: null, sourceId: 'grow', title: 'Conversation grow', messages: 4, branches: 0, appendedTo: id },
    ]);
    const report = (await upload(grown).expect(200)).body;
    expect(report.imported).toEqual([
      { id, sourceId: 'grow', title: 'Conversation grow', messages: 4, branches: 0, appendedTo: id },
    ]);
    const detail = (await http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body;
    expect(detail.messages.map((m: Json) => m.content.slice(0, 10))).toEqual([
      'question 0',
      'answer 0: ',
      'question 1',
      'answer 1: ',
      'question 2',
      'answer 2: ',
    ]);
    // Nothing new: already imported.
    expect(alreadyImported((await upload(grown).expect(200)).body)).toEqual(['grow']);
    // The next turn here continues after the last imported answer.
    await http().post('/api/chat').set(auth(ALICE_KEY)).send({ conversationId: id, message: 'and here' }).expect(200);
  });

  it('skips an Open WebUI chat imported before', async () => {
    const chat = openWebUiChat({
      id: 'owui-again',
      title: 'Twice',
      messages: [{ id: 'q1', parentId: null, role: 'user', content: 'hi', timestamp: 1_710_000_001 }],
    });
    expect((await upload([chat]).expect(200)).body.importedCount).toBe(1);
    const again = (await upload([chat]).expect(200)).body;
    expect(again.importedCount).toBe(0);
    expect(alreadyImported(again)).toEqual(['owui-again']);
  });

  it('skips the conversations of our own export that the account holds (its own, or imported before)', async () => {
    await http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'kept once' }).expect(200);
    const exported = (await http().get('/api/me/export').set(auth(BOB_KEY)).expect(200)).body;
    const own = exported.conversations.map((c: Json) => c.conversation.id as string);
    const held = await ids(BOB_KEY);
    // Bob's own export back into Bob's account: every conversation is there already.
    const back = (await upload(exported, BOB_KEY).expect(200)).body;
    expect(back.importedCount).toBe(0);
    expect(alreadyImported(back).sort()).toEqual([...own].sort());
    expect((await upload(exported, BOB_KEY, '?dryRun=true').expect(200)).body.importedCount).toBe(0);
    expect((await ids(BOB_KEY)).sort()).toEqual([...held].sort());

    // Into Alice's account once, then not again.
    const carol = exported.conversations.length;
    expect((await upload(exported, ALICE_KEY).expect(200)).body.importedCount).toBe(carol);
    const twice = (await upload(exported, ALICE_KEY).expect(200)).body;
    expect(twice.importedCount).toBe(0);
    expect(alreadyImported(twice).sort()).toEqual([...own].sort());
  });
});
