import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY } from '../../support/test-app.js';

type Json = Record<string, any>;

/**
 * Export format version 2 (the whole tree) and its import, on both databases: a tree with
 * edits, regenerated answers, branches in a second thread and a branch selected that is not the
 * newest comes back with the same /tree and the same active paths; broken trees are refused
 * with their paths; an account export comes back whole through POST /api/imports, agents too.
 */
describe('export version 2: the whole tree, and its import', () => {
  const fixture = useAppWithFakeModel({ SYSTEM_PROMPT: 'sys' });
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ fake } = fixture));

  const http = () => fixture.app.http();
  const say = async (body: object, reply: string, key = ALICE_KEY) => {
    fake.enqueue({ kind: 'reply', text: reply });
    return (await http().post('/api/chat').set(auth(key)).send(body).expect(200)).body as {
      conversationId: string;
      userMessageId: string;
      messageId: string;
    };
  };
  const tree = async (id: string, key = ALICE_KEY): Promise<Json[]> => {
    const items: Json[] = [];
    for (let before: number | null | undefined; before !== null;) {
      const page = (
        await http()
          .get(`/api/conversations/${id}/tree?limit=3${before ? `&before=${before}` : ''}`)
          .set(auth(key))
          .expect(200)
      ).body;
      items.unshift(...page.items);
      before = page.nextBefore;
    }
    return items;
  };
  const path = async (id: string, thread: string, key = ALICE_KEY) =>
    (
      (await http().get(`/api/conversations/${id}?thread=${thread}`).set(auth(key)).expect(200)).body.messages as Json[]
    ).map((m) => m.content);
  const exportDoc = async (id: string, query = '') =>
    (await http().get(`/api/conversations/${id}/export${query}`).set(auth(ALICE_KEY)).expect(200)).body;
  const importDoc = (doc: unknown, key = ALICE_KEY) =>
    http()
      .post('/api/conversations/import')
      .set(auth(key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(doc));
  const upload = (body: unknown, key = ALICE_KEY, query = '') =>
    http()
      .post(`/api/imports${query}`)
      .set(auth(key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const count = async (key = ALICE_KEY) => {
    let n = 0;
    for (const archived of ['false', 'true'])
      n += (await http().get(`/api/conversations?limit=100&archived=${archived}`).set(auth(key)).expect(200)).body.items
        .length;
    return n;
  };

  /**
   * The tree with ids replaced by what they stand for (the seq of the message), so that two
   * copies of a conversation compare equal: everything a tree view shows, branches included.
   */
  const shape = (items: Json[]) => {
    const seqOf = new Map(items.map((m) => [m.id, m.seq] as const));
    return items.map(({ id: _id, parentId, siblingIds, ...m }) => ({
      ...m,
      parent: parentId === null ? null : seqOf.get(parentId),
      siblings: siblingIds.map((s: string) => seqOf.get(s)),
    }));
  };

  /** main: q1 answered twice, q2 edited (two branches), the older branch selected; side: s2 edited; a failed reply. */
  async function branchyConversation(): Promise<string> {
    const q1 = await say({ message: 'q1' }, 'a1');
    const id = q1.conversationId;
    fake.enqueue({ kind: 'reply', text: 'a1 again' });
    await http().post(`/api/conversations/${id}/regenerate`).set(auth(ALICE_KEY)).send({}).expect(200);
    const q2 = await say({ message: 'q2', conversationId: id }, 'a2');
    await say({ message: 'q3', conversationId: id }, 'a3');
    fake.enqueue({ kind: 'reply', text: 'b2' });
    await http()
      .post(`/api/conversations/${id}/messages/${q2.userMessageId}/edit`)
      .set(auth(ALICE_KEY))
      .send({ message: 'q2 edited' })
      .expect(200);
    await say({ message: 's1', conversationId: id, thread: 'side', system: 'Side rules.' }, 'sa1');
    const s2 = await say({ message: 's2', conversationId: id, thread: 'side' }, 'sa2');
    fake.enqueue({ kind: 'reply', text: 'sb2' });
    await http()
      .post(`/api/conversations/${id}/messages/${s2.userMessageId}/edit`)
      .set(auth(ALICE_KEY))
      .send({ message: 's2 edited' })
      .expect(200);
    fake.enqueue({ kind: 'status', status: 500, message: 'upstream exploded' });
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: id, message: 's3', thread: 'side' })
      .expect(502);
    // The older branch of main, which is not the newest: q2 → a2 → q3 → a3.
    await http().post(`/api/conversations/${id}/messages/${q2.userMessageId}/select`).set(auth(ALICE_KEY)).expect(200);
    await http()
      .patch(`/api/conversations/${id}`)
      .set(auth(ALICE_KEY))
      .send({ pinned: true, tags: ['trees'] })
      .expect(200);
    return id;
  }

  it('writes every message with its parent and each thread’s active leaf, and imports back the same tree and active paths', async () => {
    const id = await branchyConversation();
    const original = await tree(id);
    const doc = await exportDoc(id);
    expect(doc).toMatchObject({
      format: 'chat-memory.conversation',
      version: 2,
      conversation: { pinned: true, tags: ['trees'] },
    });
    const messages = doc.conversation.messages as Json[];
    expect(messages.map((m) => [m.id, m.parentId, m.seq, m.thread, m.content])).toEqual(
      original.map((m) => [m.id, m.parentId, m.seq, m.thread, m.content]),
    );
    expect(messages[0]).not.toHaveProperty('versions');
    const leafOf = (thread: string) => original.filter((m) => m.thread === thread && m.onPath).at(-1)!.id;
    expect(doc.conversation.threads).toEqual([
      expect.objectContaining({ name: 'main', activeLeafId: leafOf('main') }),
      expect.objectContaining({ name: 'side', systemPrompt: 'Side rules.', activeLeafId: leafOf('side') }),
    ]);
    expect(messages.find((m) => m.content === 's3' || m.status === 'failed')).toBeDefined();

    const imported = (await importDoc(doc).expect(201)).body;
    expect(imported).toMatchObject({ title: doc.conversation.title, pinned: true, tags: ['trees'] });
    const copy = await tree(imported.id);
    expect(shape(copy)).toEqual(shape(original));
    expect(copy.map((m) => m.id).filter((mid) => original.some((o) => o.id === mid))).toEqual([]);
    for (const thread of ['main', 'side']) expect(await path(imported.id, thread)).toEqual(await path(id, thread));
    expect(await path(imported.id, 'main')).toEqual(['q1', 'a1 again', 'q2', 'a2', 'q3', 'a3']);

    // Exported again, it is the same document but for ids and times of the export.
    const again = await exportDoc(imported.id);
    const strip = (d: Json) => {
      const seqOf = new Map((d.conversation.messages as Json[]).map((m) => [m.id, m.seq] as const));
      const { id: _i, updatedAt: _u, agent: _a, ...c } = d.conversation;
      return {
        ...c,
        threads: c.threads.map((t: Json) => ({ ...t, activeLeafId: seqOf.get(t.activeLeafId) })),
        messages: c.messages.map((m: Json) => ({
          ...m,
          id: m.seq,
          parentId: m.parentId === null ? null : seqOf.get(m.parentId),
        })),
      };
    };
    expect(strip(again)).toEqual(strip(doc));

    // The copy goes on from the selected branch, and the model is sent that branch alone.
    await say({ message: 'q4', conversationId: imported.id }, 'a4');
    expect(fake.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
      'sys',
      'q1',
      'a1 again',
      'q2',
      'a2',
      'q3',
      'a3',
      'q4',
    ]);
    // And every branch can still be selected there.
    const edited = copy.find((m) => m.content === 'q2 edited')!;
    await http()
      .post(`/api/conversations/${imported.id}/messages/${edited.id}/select`)
      .set(auth(ALICE_KEY))
      .expect(200);
    expect(await path(imported.id, 'main')).toEqual(['q1', 'a1 again', 'q2 edited', 'b2']);
  });

  it('keeps version 1 on request: the active paths, other answers as versions; such a file still imports', async () => {
    const id = await branchyConversation();
    const v1 = await exportDoc(id, '?version=1');
    expect(v1.version).toBe(1);
    expect(v1.conversation.messages.map((m: Json) => m.content)).toEqual([
      'q1',
      'a1 again',
      'q2',
      'a2',
      'q3',
      'a3',
      's1',
      'sa1',
      's2 edited',
      'sb2',
      's3',
      '',
    ]);
    expect(v1.conversation.messages[0]).not.toHaveProperty('id');
    const imported = (await importDoc(v1).expect(201)).body;
    expect(await path(imported.id, 'main')).toEqual(['q1', 'a1 again', 'q2', 'a2', 'q3', 'a3']);
    expect((await tree(imported.id)).filter((m) => m.content === 'a1')).toHaveLength(1);
    await http().get(`/api/conversations/${id}/export?version=3`).set(auth(ALICE_KEY)).expect(400);
    const md = await http().get(`/api/conversations/${id}/export?format=markdown`).set(auth(ALICE_KEY)).expect(200);
    expect(md.text).toContain('q3');
    expect(md.text).not.toContain('q2 edited');
  });

  it('keeps a summary with the branch it covers: shown on that branch, not on another, back when it is selected', async () => {
    const at = '2026-01-02T03:04:05.000Z';
    const m = (seq: number, id: string, parentId: string | null, role = 'user') => ({
      id,
      parentId,
      seq,
      thread: 'main',
      role,
      content: id,
      status: 'complete',
      createdAt: at,
    });
    const doc = (activeLeafId: string) => ({
      format: 'chat-memory.conversation',
      version: 2,
      conversation: {
        title: 'Summarized',
        createdAt: at,
        threads: [{ name: 'main', systemPrompt: null, activeLeafId }],
        summaries: [{ thread: 'main', content: 'They greeted.', coversSeq: 20, tokens: 3, model: 'm' }],
        messages: [m(10, 'hello', null), m(20, 'hi', 'hello', 'assistant'), m(30, 'hey', 'hello', 'assistant')],
      },
    });
    const onCovered = (await importDoc(doc('hi')).expect(201)).body;
    expect(
      (await http().get(`/api/conversations/${onCovered.id}`).set(auth(ALICE_KEY)).expect(200)).body.summary,
    ).toMatchObject({ content: 'They greeted.', coversSeq: 2 });
    const elsewhere = (await importDoc(doc('hey')).expect(201)).body;
    const detail = (await http().get(`/api/conversations/${elsewhere.id}`).set(auth(ALICE_KEY)).expect(200)).body;
    expect(detail.summary).toBeNull();
    expect(detail.messages.map((x: Json) => x.content)).toEqual(['hello', 'hey']);
    const hi = (await tree(elsewhere.id)).find((x) => x.content === 'hi')!;
    await http().post(`/api/conversations/${elsewhere.id}/messages/${hi.id}/select`).set(auth(ALICE_KEY)).expect(200);
    expect(
      (await http().get(`/api/conversations/${elsewhere.id}`).set(auth(ALICE_KEY)).expect(200)).body.summary,
    ).toMatchObject({ coversSeq: 2 });
    // And the export writes it back with the seq it covers.
    expect((await exportDoc(elsewhere.id)).conversation.summaries).toEqual([
      expect.objectContaining({ thread: 'main', coversSeq: 2, content: 'They greeted.' }),
    ]);
  });

  it.each<[string, (messages: Json[], threads: Json[]) => void, string, RegExp]>([
    [
      'a cycle',
      (m) => Object.assign(m[0], { parentId: m[1].id }),
      '$.conversation.messages',
      /^a cycle: the parents of node/,
    ],
    [
      'a dangling parent',
      (m) => Object.assign(m[1], { parentId: 'not-here' }),
      '$.conversation.messages',
      /^node ".+" has parent "not-here", which is not in the conversation$/,
    ],
    ['an id twice', (m) => Object.assign(m[2], { id: m[1].id }), '$.conversation.messages', /appears twice$/],
    [
      'a leaf not in its thread',
      (m, t) => Object.assign(t[0], { activeLeafId: m.find((x) => x.thread === 'side')!.id }),
      '$.conversation.threads[0].activeLeafId',
      /^is a message of thread "side", not of "main"$/,
    ],
    [
      'an unknown leaf',
      (_m, t) => Object.assign(t[1], { activeLeafId: 'nowhere' }),
      '$.conversation.threads[1].activeLeafId',
      /is not the id of a message/,
    ],
    [
      'a parent in another thread',
      (m) =>
        Object.assign(
          m.find((x) => x.thread === 'side')!,
          { parentId: m[0].id },
        ),
      '$.conversation.messages[9].parentId',
      /^is a message of thread "main"/,
    ],
    ['a message without id', (m) => delete m[3].id, '$.conversation.messages[3].id', /^is missing \(a string\)/],
  ])('refuses a version 2 file with %s (400 with the path), storing nothing', async (_name, corrupt, at, message) => {
    const doc = await exportDoc(await branchyConversation());
    corrupt(doc.conversation.messages, doc.conversation.threads);
    const before = await count();
    const res = await importDoc(doc).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'import_rejected' });
    expect(res.body.problems).toEqual([{ path: at, message: expect.stringMatching(message) }]);
    expect(await count()).toBe(before);
  });

  it('imports an account export back whole: agents created, reused or renamed, conversations linked, trees kept; a broken one skipped', async () => {
    const helper = (
      await http()
        .post('/api/agents')
        .set(auth(BOB_KEY))
        .send({ name: 'Helper', systemPrompt: 'Help.', temperature: 0.5 })
        .expect(201)
    ).body;
    const planner = (
      await http().post('/api/agents').set(auth(BOB_KEY)).send({ name: 'Planner', systemPrompt: 'Plan.' }).expect(201)
    ).body;
    const one = await say({ message: 'first', agentId: helper.id }, 'r1', BOB_KEY);
    fake.enqueue({ kind: 'reply', text: 'r1 again' });
    await http().post(`/api/conversations/${one.conversationId}/regenerate`).set(auth(BOB_KEY)).send({}).expect(200);
    await http()
      .post(`/api/conversations/${one.conversationId}/messages/${one.messageId}/select`)
      .set(auth(BOB_KEY))
      .expect(200);
    await say({ message: 'plain' }, 'r2', BOB_KEY);
    const exported = (await http().get('/api/me/export').set(auth(BOB_KEY)).expect(200)).body;
    expect(exported).toMatchObject({ format: 'chat-memory.account', version: 2 });
    expect(exported.conversations.every((c: Json) => c.version === 2)).toBe(true);

    // Alice has a Helper of her own, with other settings, and a Planner like Bob's.
    const alicesHelper = (
      await http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Helper', systemPrompt: 'Something else.' })
        .expect(201)
    ).body;
    const alicesPlanner = (
      await http().post('/api/agents').set(auth(ALICE_KEY)).send({ name: 'Planner', systemPrompt: 'Plan.' }).expect(201)
    ).body;
    const broken = structuredClone(exported);
    broken.conversations[0].conversation.messages[0].parentId = 'nowhere';
    const before = await count();
    const dry = (await upload(broken, ALICE_KEY, '?dryRun=true&agents=true').expect(200)).body;
    expect(dry.agents.map((a: Json) => [a.sourceId, a.outcome, a.name, a.id])).toEqual([
      [helper.id, 'renamed', 'Helper (2)', null],
      [planner.id, 'reused', 'Planner', alicesPlanner.id],
    ]);
    expect(await count()).toBe(before);
    expect(
      (await http().get('/api/agents').set(auth(ALICE_KEY)).expect(200)).body.items.map((a: Json) => a.name).sort(),
    ).toEqual(['Helper', 'Planner']);

    const report = (await upload(broken, ALICE_KEY, '?agents=true').expect(200)).body;
    expect(report).toMatchObject({ format: 'chat-memory', agentsNotImported: 0 });
    expect(report.agents).toEqual([
      {
        sourceId: helper.id,
        name: 'Helper (2)',
        id: expect.any(String),
        outcome: 'renamed',
        reason: 'you already have another agent named "Helper"',
        systemPrompt: 'Help.',
        tools: [],
      },
      {
        sourceId: planner.id,
        name: 'Planner',
        id: alicesPlanner.id,
        outcome: 'reused',
        systemPrompt: 'Plan.',
        tools: [],
      },
    ]);
    const newHelper = report.agents[0].id;
    expect(newHelper).not.toBe(alicesHelper.id);
    expect((await http().get(`/api/agents/${newHelper}`).set(auth(ALICE_KEY)).expect(200)).body).toMatchObject({
      name: 'Helper (2)',
      systemPrompt: 'Help.',
      temperature: 0.5,
    });
    expect(report.skipped).toEqual([
      expect.objectContaining({ index: 0, reason: expect.stringMatching(/which is not in the conversation/) }),
    ]);
    expect(report.imported).toHaveLength(exported.conversations.length - 1);
    expect(await count()).toBe(before + exported.conversations.length - 1);

    // The whole file: the first conversation with its agent and its tree (the first answer selected).
    const whole = (await upload(exported, ALICE_KEY, '?agents=true').expect(200)).body;
    expect(whole.agents.map((a: Json) => [a.outcome, a.id])).toEqual([
      ['reused', newHelper],
      ['reused', alicesPlanner.id],
    ]);
    // What the first upload brought is there already (skipped as such); the conversation it refused comes now.
    expect(whole.skipped.map((x: Json) => x.code)).toEqual(
      new Array(exported.conversations.length - 1).fill('already_imported'),
    );
    expect(whole.imported).toHaveLength(1);
    const both = [...report.imported, ...whole.imported];
    const item = both.find((c: Json) => c.sourceId === one.conversationId);
    expect(item).toMatchObject({ messages: 3, branches: 1 });
    const conversation = (await http().get(`/api/conversations/${item.id}`).set(auth(ALICE_KEY)).expect(200)).body;
    expect(conversation).toMatchObject({ agentId: newHelper });
    expect(conversation.messages.map((m: Json) => m.content)).toEqual(['first', 'r1']);
    expect(shape(await tree(item.id))).toEqual(shape(await tree(one.conversationId, BOB_KEY)));
    const other = both.find((c: Json) => c.sourceId !== one.conversationId);
    expect(
      (await http().get(`/api/conversations/${other.id}`).set(auth(ALICE_KEY)).expect(200)).body.agentId,
    ).toBeNull();

    // A version 1 account export still imports, and its agents too (its conversations deleted first: else they are there already).
    const v1 = (await http().get('/api/me/export?version=1').set(auth(BOB_KEY)).expect(200)).body;
    for (const c of v1.conversations)
      await http().delete(`/api/conversations/${c.conversation.id}`).set(auth(BOB_KEY)).expect(204);
    expect(v1.version).toBe(1);
    const fromV1 = (await upload(v1, BOB_KEY, '?agents=true').expect(200)).body;
    expect(fromV1.agents.map((a: Json) => [a.outcome, a.id])).toEqual([
      ['reused', helper.id],
      ['reused', planner.id],
    ]);
    expect(fromV1.skipped).toEqual([]);
    const v1Item = fromV1.imported.find((c: Json) => c.sourceId === one.conversationId);
    expect((await http().get(`/api/conversations/${v1Item.id}`).set(auth(BOB_KEY)).expect(200)).body).toMatchObject({
      agentId: helper.id,
    });
  });
});
