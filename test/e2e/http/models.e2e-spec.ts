import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY } from '../../support/test-app.js';

// The model picker: the models offered (LLM_MODELS, or the model server's own list), a model
// chosen per conversation (validated against them), and each reply recording the model that wrote it.

describe('choosing the model of a conversation (LLM_MODELS)', () => {
  const fixture = useAppWithFakeModel({ LLM_MODELS: 'small-model, big-model' });
  const http = () => fixture.app.http();

  it('lists the offered models, the default first', async () => {
    const res = await http().get('/api/models').set(auth(ALICE_KEY)).expect(200);
    expect(res.body).toEqual({
      items: [{ id: 'fake-model' }, { id: 'small-model' }, { id: 'big-model' }],
      defaultModel: 'fake-model',
    });
    await http().get('/api/models').expect(401);
  });

  it("stores the conversation's model, calls it on every turn, and records it on each reply", async () => {
    const created = (
      await http().post('/api/conversations').set(auth(ALICE_KEY)).send({ model: 'big-model' }).expect(201)
    ).body;
    expect(created.model).toBe('big-model');
    const turn = (
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: created.id, message: 'hi' })
        .expect(200)
    ).body;
    expect(fixture.fake.lastCompletion.body.model).toBe('big-model');
    expect(turn.model).toBe('big-model');

    const patched = (
      await http()
        .patch(`/api/conversations/${created.id}`)
        .set(auth(ALICE_KEY))
        .send({ model: 'small-model' })
        .expect(200)
    ).body;
    expect(patched.model).toBe('small-model');
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: created.id, message: 'again' })
      .expect(200);
    expect(fixture.fake.lastCompletion.body.model).toBe('small-model');

    await http().patch(`/api/conversations/${created.id}`).set(auth(ALICE_KEY)).send({ model: null }).expect(200);
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: created.id, message: 'default now' })
      .expect(200);
    expect(fixture.fake.lastCompletion.body.model).toBe('fake-model');

    const items = (await http().get(`/api/conversations/${created.id}/messages`).set(auth(ALICE_KEY)).expect(200)).body
      .items;
    expect(
      items.filter((m: { role: string }) => m.role === 'assistant').map((m: { model: string }) => m.model),
    ).toEqual(['big-model', 'small-model', 'fake-model']);
    expect(
      (await http().get(`/api/conversations/${created.id}`).set(auth(ALICE_KEY)).expect(200)).body.model,
    ).toBeNull();
  });

  it('a new chat may name its model; it is kept for the conversation', async () => {
    const turn = (
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'start small', model: 'small-model' })
        .expect(200)
    ).body;
    expect(fixture.fake.lastCompletion.body.model).toBe('small-model');
    expect(
      (await http().get(`/api/conversations/${turn.conversationId}`).set(auth(ALICE_KEY)).expect(200)).body.model,
    ).toBe('small-model');
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: turn.conversationId, message: 'go on' })
      .expect(200);
    expect(fixture.fake.lastCompletion.body.model).toBe('small-model');
  });

  it('refuses a model that is not offered with 400, storing nothing', async () => {
    const before = (await http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items.length;
    for (const res of [
      await http().post('/api/conversations').set(auth(ALICE_KEY)).send({ model: 'gpt-unknown' }),
      await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hi', model: 'gpt-unknown' }),
      await http().post('/api/conversations').set(auth(ALICE_KEY)).send({ model: 42 }),
      await http()
        .post('/api/conversations')
        .set(auth(ALICE_KEY))
        .send({ model: 'x'.repeat(201) }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toMatch(/^(model_not_offered|invalid_input)$/);
    }
    expect((await http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items.length).toBe(before);
    const id = (await http().post('/api/conversations').set(auth(ALICE_KEY)).send({}).expect(201)).body.id;
    const refused = await http()
      .patch(`/api/conversations/${id}`)
      .set(auth(ALICE_KEY))
      .send({ model: 'gpt-unknown' })
      .expect(400);
    expect(refused.body.message).toContain('gpt-unknown');
    expect(fixture.fake.completions).toHaveLength(0);
  });

  it("another actor's conversation is unknown", async () => {
    const id = (await http().post('/api/conversations').set(auth(ALICE_KEY)).send({}).expect(201)).body.id;
    await http().patch(`/api/conversations/${id}`).set(auth(BOB_KEY)).send({ model: 'big-model' }).expect(404);
  });
});

describe('the models offered without LLM_MODELS: the model server list', () => {
  const fixture = useAppWithFakeModel();

  it("lists the server's models (default first) and validates against them", async () => {
    fixture.fake.models = ['other-model', 'fake-model'];
    const listed = (await fixture.app.http().get('/api/models').set(auth(ALICE_KEY)).expect(200)).body;
    expect(listed).toEqual({ items: [{ id: 'fake-model' }, { id: 'other-model' }], defaultModel: 'fake-model' });
    await fixture.app.http().post('/api/conversations').set(auth(ALICE_KEY)).send({ model: 'other-model' }).expect(201);
    await fixture.app.http().post('/api/conversations').set(auth(ALICE_KEY)).send({ model: 'not-there' }).expect(400);
  });
});
