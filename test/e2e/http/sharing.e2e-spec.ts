import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { RetentionService } from '../../../src/retention/retention.service.js';
import { Share } from '../../../src/sharing/share.entity.js';
import { ALICE_KEY, asActor, BOB_KEY, startTestApp, type TestApp } from '../../support/test-app.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

describe('sharing: a read-only snapshot by link, revocable, continued as your own', () => {
  const fixture = useAppWithFakeModel({ SHARED_READS_PER_MINUTE: '1000' });
  let t: TestApp;
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ app: t, fake } = fixture));

  const alice = asActor(() => t, ALICE_KEY);
  const bob = asActor(() => t, BOB_KEY);
  const anyone = {
    get: (path: string) => t.http().get(path),
    post: (path: string) => t.http().post(path).send({}),
  };

  async function conversationWith(
    ...messages: string[]
  ): Promise<{ id: string; turns: Array<{ userMessageId: string; messageId: string }> }> {
    let id: string | undefined;
    const turns = [];
    for (const message of messages) {
      const body = (await alice.post('/api/chat', id ? { message, conversationId: id } : { message }).expect(200)).body;
      id = body.conversationId;
      turns.push({ userMessageId: body.userMessageId, messageId: body.messageId });
    }
    return { id: id!, turns };
  }

  const share = async (id: string, body: object = {}) =>
    (await alice.post(`/api/conversations/${id}/shares`, body).expect(201)).body;

  it('answers the link once, with exactly these keys, and a Location', async () => {
    const { id } = await conversationWith('Plan a trip to Lyon');
    const res = await alice.post(`/api/conversations/${id}/shares`, {}).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'token', 'url']);
    expect(res.body.token).toMatch(TOKEN);
    // No PUBLIC_BASE_URL here: the link is relative to the service.
    expect(res.body.url).toBe(`/s/${res.body.token}`);
    expect(res.body.expiresAt).toBeNull();
    expect(res.headers.location).toBe(`/api/shares/${res.body.id}`);
    const list = (await alice.get(`/api/conversations/${id}/shares`).expect(200)).body;
    expect(list.items).toHaveLength(1);
    expect(Object.keys(list.items[0]).sort()).toEqual([
      'conversationId',
      'createdAt',
      'expiresAt',
      'id',
      'messageCount',
      'title',
      'upToMessageId',
    ]);
    expect(list.items[0]).toMatchObject({
      id: res.body.id,
      conversationId: id,
      messageCount: 2,
      title: 'Plan a trip to Lyon',
    });
    expect(JSON.stringify(list)).not.toContain(res.body.token);
  });

  it('shows, without a key, the title and the messages (role, content, model, createdAt) and nothing else', async () => {
    const { id } = await conversationWith('What is a monad?', 'And a functor?');
    await alice.put(`/api/conversations/${id}/state`, { secret: 'state-not-for-readers' }).expect(200);
    const { token } = await share(id);
    const res = await anyone.get(`/api/shared/${token}`).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(Object.keys(res.body).sort()).toEqual(['messages', 'title']);
    expect(res.body.title).toBe('What is a monad?');
    for (const m of res.body.messages) expect(Object.keys(m).sort()).toEqual(['content', 'createdAt', 'model', 'role']);
    expect(res.body.messages.map((m: { role: string; content: string }) => `${m.role}: ${m.content}`)).toEqual([
      'user: What is a monad?',
      'assistant: reply to: What is a monad?',
      'user: And a functor?',
      'assistant: reply to: And a functor?',
    ]);
    expect(res.body.messages[1].model).toEqual(expect.any(String));
    const text = JSON.stringify(res.body);
    for (const hidden of [id, 'api:alice', 'alice', 'state-not-for-readers']) expect(text).not.toContain(hidden);
  });

  it('keeps the snapshot fixed through later turns, an edit (a new branch) and a rename', async () => {
    const { id, turns } = await conversationWith('First question', 'Second question');
    const { token } = await share(id);
    const before = (await anyone.get(`/api/shared/${token}`).expect(200)).body;
    await alice.post('/api/chat', { message: 'Third question', conversationId: id }).expect(200);
    await alice
      .post(`/api/conversations/${id}/messages/${turns[1].userMessageId}/edit`, { message: 'Second, reworded' })
      .expect(200);
    await alice.patch(`/api/conversations/${id}`, { title: 'Renamed later' }).expect(200);
    expect((await anyone.get(`/api/shared/${token}`).expect(200)).body).toEqual(before);
    expect(before.messages).toHaveLength(4);
    // A new share takes the path as it is now: the edited branch.
    const now = (await anyone.get(`/api/shared/${(await share(id)).token}`).expect(200)).body;
    expect(now.title).toBe('Renamed later');
    expect(now.messages.map((m: { content: string }) => m.content)).toEqual([
      'First question',
      'reply to: First question',
      'Second, reworded',
      'reply to: Second, reworded',
    ]);
  });

  it('shares the branch up to messageId, and refuses a message of no conversation of the caller', async () => {
    const { id, turns } = await conversationWith('One', 'Two', 'Three');
    const { token } = await share(id, { messageId: turns[0].messageId });
    expect(
      (await anyone.get(`/api/shared/${token}`).expect(200)).body.messages.map((m: { content: string }) => m.content),
    ).toEqual(['One', 'reply to: One']);
    const other = await conversationWith('Elsewhere');
    const res = await alice
      .post(`/api/conversations/${id}/shares`, { messageId: other.turns[0].messageId })
      .expect(404);
    expect(res.body.code).toBe('message_not_found');
    const empty = (await alice.post('/api/conversations', {}).expect(201)).body;
    expect((await alice.post(`/api/conversations/${empty.id}/shares`, {}).expect(400)).body.code).toBe('invalid_input');
  });

  it('stores only a hash of the token', async () => {
    const { id } = await conversationWith('Hash me');
    const { token, id: shareId } = await share(id);
    const rows = await t.app.get(DataSource).query('SELECT * FROM shares');
    expect(rows.length).toBeGreaterThan(0);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    const row = rows.find((r: { id: string }) => r.id === shareId);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('revokes at once: the link, and a second revoke, answer 404', async () => {
    const { id } = await conversationWith('Revoke me');
    const { token, id: shareId } = await share(id);
    await anyone.get(`/api/shared/${token}`).expect(200);
    await alice.delete(`/api/shares/${shareId}`).expect(204);
    const gone = await anyone.get(`/api/shared/${token}`).expect(404);
    const unknown = await anyone.get(`/api/shared/${'A'.repeat(43)}`).expect(404);
    expect(gone.body).toEqual(unknown.body);
    // A token of another shape (one character too many or too few, a stray one) answers the same 404.
    for (const bad of ['not-a-token', `${token}A`, token.slice(0, -1), `${token.slice(0, -1)}=`, '%20'.repeat(43)]) {
      const res = await anyone.get(`/api/shared/${bad}`).expect(404);
      expect({ bad, body: res.body }).toEqual({ bad, body: unknown.body });
      expect((await bob.post(`/api/shared/${bad}/fork`).expect(404)).body).toEqual(unknown.body);
    }
    expect(gone.body.code).toBe('share_not_found');
    await alice.delete(`/api/shares/${shareId}`).expect(404);
    expect((await alice.get(`/api/conversations/${id}/shares`).expect(200)).body.items).toEqual([]);
    await bob.post(`/api/shared/${token}/fork`).expect(404);
  });

  it('revokes on every instance at once: another instance on the same database answers 404 right after', async () => {
    const other = await startTestApp({
      dbPath: t.dbPath,
      llmBaseUrl: fake.url,
      env: { SHARED_READS_PER_MINUTE: '1000' },
    });
    try {
      const { id } = await conversationWith('Seen everywhere');
      const { token, id: shareId } = await share(id);
      await other.http().get(`/api/shared/${token}`).expect(200);
      await alice.delete(`/api/shares/${shareId}`).expect(204);
      await other.http().get(`/api/shared/${token}`).expect(404);
    } finally {
      await other.close();
    }
  });

  it('honours expiry: an expired link answers like an unknown one', async () => {
    const { id } = await conversationWith('Expire me');
    const expiresAt = new Date(Date.now() + 60 * 60_000).toISOString();
    const created = await share(id, { expiresAt });
    expect(created.expiresAt).toBe(expiresAt);
    await anyone.get(`/api/shared/${created.token}`).expect(200);
    // Moved into the past by hand: waiting for a clock is no test.
    await t.app
      .get(DataSource)
      .getRepository(Share)
      .update({ id: created.id }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await anyone.get(`/api/shared/${created.token}`).expect(404);
    expect(res.body.code).toBe('share_not_found');
    await bob.post(`/api/shared/${created.token}/fork`).expect(404);
    expect(
      (
        await alice
          .post(`/api/conversations/${id}/shares`, { expiresAt: new Date(Date.now() - 1000).toISOString() })
          .expect(400)
      ).body.code,
    ).toBe('invalid_input');
    await alice.post(`/api/conversations/${id}/shares`, { expiresAt: 'tomorrow' }).expect(400);
    await alice.post(`/api/conversations/${id}/shares`, { token: 'mine' }).expect(400);
  });

  it("forks into the reader's own conversation, which continues from the snapshot", async () => {
    const { id } = await conversationWith('Teach me chess');
    const { token } = await share(id);
    const res = await bob.post(`/api/shared/${token}/fork`).expect(201);
    const fork = res.body;
    expect(res.headers.location).toBe(`/api/conversations/${fork.id}`);
    expect(fork.id).not.toBe(id);
    expect(fork.title).toBe('Teach me chess (fork)');
    expect(fork.messages.map((m: { content: string }) => m.content)).toEqual([
      'Teach me chess',
      'reply to: Teach me chess',
    ]);
    const next = (await bob.post('/api/chat', { message: 'Go on', conversationId: fork.id }).expect(200)).body;
    expect(next.reply).toBe('reply to: Go on');
    // The model was sent the snapshot as history.
    const sent = (fake.completions.at(-1)?.body.messages ?? []).map((m) => m.content);
    expect(sent).toEqual(expect.arrayContaining(['Teach me chess', 'reply to: Teach me chess', 'Go on']));
    // Bob's conversation is his alone; Alice's is untouched.
    await alice.get(`/api/conversations/${fork.id}`).expect(404);
    expect((await alice.get(`/api/conversations/${id}`).expect(200)).body.messages).toHaveLength(2);
    // Forking needs an actor.
    await anyone.post(`/api/shared/${token}/fork`).expect(401);
  });

  it("makes another actor's conversations and shares look unknown", async () => {
    const { id } = await conversationWith('Private');
    const { id: shareId } = await share(id);
    expect((await bob.post(`/api/conversations/${id}/shares`, {}).expect(404)).body.code).toBe(
      'conversation_not_found',
    );
    expect((await bob.get(`/api/conversations/${id}/shares`).expect(404)).body.code).toBe('conversation_not_found');
    const foreign = await bob.delete(`/api/shares/${shareId}`).expect(404);
    const missing = await bob.delete('/api/shares/00000000-0000-4000-8000-000000000000').expect(404);
    expect(foreign.body).toEqual({ ...missing.body });
    expect((await alice.get(`/api/conversations/${id}/shares`).expect(200)).body.items).toHaveLength(1);
    await alice.post(`/api/conversations/${id}/shares`, {}).set('Authorization', '').expect(401);
  });

  it('deleting the conversation takes its shares; the export lists them', async () => {
    const { id } = await conversationWith('Listed and deleted');
    const { token, id: shareId } = await share(id);
    const exported = (await alice.get('/api/me/export').expect(200)).body;
    expect(exported.shares).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: shareId, conversationId: id, messageCount: 2 })]),
    );
    expect(JSON.stringify(exported.shares)).not.toContain(token);
    expect((await bob.get('/api/me/export').expect(200)).body.shares).toEqual([]);
    await alice.delete(`/api/conversations/${id}`).expect(204);
    await anyone.get(`/api/shared/${token}`).expect(404);
    expect(await t.app.get(DataSource).getRepository(Share).countBy({ conversationId: id })).toBe(0);
  });

  it("erasing an actor's data takes its shares", async () => {
    const own = await bob.post('/api/chat', { message: 'Bob shares this' }).expect(200);
    const { token } = (await bob.post(`/api/conversations/${own.body.conversationId}/shares`, {}).expect(201)).body;
    await anyone.get(`/api/shared/${token}`).expect(200);
    await bob.delete('/api/me/data').expect(200);
    await anyone.get(`/api/shared/${token}`).expect(404);
    expect((await bob.get('/api/me/export').expect(200)).body.shares).toEqual([]);
  });
});

describe('sharing: reads without a key are limited per address', () => {
  const fixture = useAppWithFakeModel({ SHARED_READS_PER_MINUTE: '3' });

  it('answers 429 with Retry-After past SHARED_READS_PER_MINUTE, unknown tokens counted too', async () => {
    const t = fixture.app;
    const chat = (
      await asActor(() => t, ALICE_KEY)
        .post('/api/chat', { message: 'Popular' })
        .expect(200)
    ).body;
    const { token } = (
      await asActor(() => t, ALICE_KEY)
        .post(`/api/conversations/${chat.conversationId}/shares`, {})
        .expect(201)
    ).body;
    await t.http().get(`/api/shared/${token}`).expect(200);
    await t
      .http()
      .get(`/api/shared/${'B'.repeat(43)}`)
      .expect(404);
    await t.http().get(`/api/shared/${token}`).expect(200);
    const res = await t.http().get(`/api/shared/${token}`).expect(429);
    expect(res.body.code).toBe('too_many_requests');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The owner's own routes count under the per-actor limit, not this one.
    await asActor(() => t, ALICE_KEY)
      .get(`/api/conversations/${chat.conversationId}/shares`)
      .expect(200);
  });
});

describe('sharing: absolute links under PUBLIC_BASE_URL', () => {
  const fixture = useAppWithFakeModel({ PUBLIC_BASE_URL: 'https://chat.example.com/' });

  it('builds the url from the public address', async () => {
    const t = fixture.app;
    const chat = (
      await asActor(() => t, ALICE_KEY)
        .post('/api/chat', { message: 'Absolute' })
        .expect(200)
    ).body;
    const created = (
      await asActor(() => t, ALICE_KEY)
        .post(`/api/conversations/${chat.conversationId}/shares`, {})
        .expect(201)
    ).body;
    expect(created.url).toBe(`https://chat.example.com/s/${created.token}`);
  });
});

describe('sharing: retention', () => {
  const fixture = useAppWithFakeModel({ RETENTION_DAYS: '1' });

  it('deleting a conversation for RETENTION_DAYS takes its shares', async () => {
    const t = fixture.app;
    const chat = (
      await asActor(() => t, ALICE_KEY)
        .post('/api/chat', { message: 'Old news' })
        .expect(200)
    ).body;
    const { token } = (
      await asActor(() => t, ALICE_KEY)
        .post(`/api/conversations/${chat.conversationId}/shares`, {})
        .expect(201)
    ).body;
    await t.http().get(`/api/shared/${token}`).expect(200);
    const swept = await t.app.get(RetentionService).sweep(new Date(Date.now() + 3 * 24 * 60 * 60_000));
    expect(swept.conversations).toBe(1);
    await t.http().get(`/api/shared/${token}`).expect(404);
    expect(await t.app.get(DataSource).getRepository(Share).count()).toBe(0);
  });
});
