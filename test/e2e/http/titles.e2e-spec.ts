import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

// A conversation's title: its first message without Markdown (TITLE_MODE=first-message, the
// default), or a title the model writes after the first reply (TITLE_MODE=model), which never
// holds up nor fails the reply, and never replaces a title the user gave meanwhile.

const title = async (fixture: ReturnType<typeof useAppWithFakeModel>, id: string) =>
  (await fixture.app.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.title as string;

describe('titles from the first message (the default)', () => {
  const fixture = useAppWithFakeModel();

  it('takes the first message without its Markdown or table pipes, and asks the model nothing more', async () => {
    const res = await fixture.app
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ message: '# **Plan** a `trip` | to Rome\n| a | b |' })
      .expect(200);
    expect(res.body.title).toBe('Plan a trip to Rome a b');
    expect(await title(fixture, res.body.conversationId)).toBe('Plan a trip to Rome a b');
    expect(fixture.fake.completions).toHaveLength(1);
  });
});

describe('titles written by the model (TITLE_MODE=model)', () => {
  const fixture = useAppWithFakeModel({ TITLE_MODE: 'model', LLM_TIMEOUT_MS: '1000' });
  const chat = (body: object) => fixture.app.http().post('/api/chat').set(auth(ALICE_KEY)).send(body).expect(200);

  it('titles a new conversation after its first reply, in a short bounded call, once', async () => {
    fixture.fake.enqueue(
      { kind: 'reply', text: 'Rome is lovely in spring.' },
      { kind: 'reply', text: '"**Weekend in Rome**"' },
    );
    const first = await chat({ message: 'Plan a weekend trip to Rome for me' });
    expect(first.body).toMatchObject({
      reply: 'Rome is lovely in spring.',
      title: 'Plan a weekend trip to Rome for me',
    });
    await until(async () => (await title(fixture, first.body.conversationId)) === 'Weekend in Rome');

    const [, asked] = fixture.fake.completions;
    expect(asked.body.stream).toBeFalsy();
    expect(asked.body.max_tokens).toBeLessThanOrEqual(64);
    expect(asked.body.tools).toBeUndefined();
    expect(JSON.stringify(asked.body.messages)).toContain('Plan a weekend trip to Rome for me');
    expect(JSON.stringify(asked.body.messages)).toContain('Rome is lovely in spring.');

    await chat({ conversationId: first.body.conversationId, message: 'And in summer?' });
    await new Promise((r) => setTimeout(r, 200));
    expect(fixture.fake.completions).toHaveLength(3);
  });

  it('keeps the first-message title when the model fails or does not answer in time, and the reply is never held up', async () => {
    fixture.fake.enqueue({ kind: 'reply', text: 'Sure.' }, { kind: 'status', status: 500 });
    const failed = await chat({ message: 'First question' });
    await until(async () => fixture.fake.completions.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(await title(fixture, failed.body.conversationId)).toBe('First question');

    fixture.fake.enqueue({ kind: 'reply', text: 'Sure again.' }, { kind: 'hang' });
    const slow = await chat({ message: 'Second question' });
    expect(slow.body.reply).toBe('Sure again.');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await title(fixture, slow.body.conversationId)).toBe('Second question');
  });

  it('never replaces a title the user gave meanwhile', async () => {
    const hold = deferred();
    fixture.fake.enqueue({ kind: 'reply', text: 'Here.' }, { kind: 'reply', text: 'Model title', hold: hold.promise });
    const res = await chat({ message: 'Question to rename' });
    await until(async () => fixture.fake.completions.length === 2);
    await fixture.app
      .http()
      .patch(`/api/conversations/${res.body.conversationId}`)
      .set(auth(ALICE_KEY))
      .send({ title: 'My own name' })
      .expect(200);
    hold.resolve();
    await new Promise((r) => setTimeout(r, 300));
    expect(await title(fixture, res.body.conversationId)).toBe('My own name');
  });
});
