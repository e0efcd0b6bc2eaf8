import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { FakeOpenAiServer, RecordedRequest } from '../../fakes/fake-openai-server.js';
import { useFakeModelAndTempDir } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, startTestApp, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

/** What a request costs, counted the way OpenAI bills chat messages (content + 4 each, + 3). */
const requestTokens = (req: RecordedRequest) =>
  3 + req.body.messages!.reduce((sum, m) => sum + countTokens(m.content ?? '') + 4, 0);

const isSummaryRequest = (req: RecordedRequest) => req.body.messages![0].content.includes('running summary');

describe('context window: token budget, rolling summary, usage', () => {
  const fixture = useFakeModelAndTempDir();
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ fake } = fixture));

  const chat = (t: TestApp, body: object) => t.http().post('/api/chat').set(auth(ALICE_KEY)).send(body);
  const sentence = (i: number) =>
    `Message number ${i} talks about the weather in a city with a long name, and nothing else.`;

  it('keeps every request within CONTEXT_TOKEN_BUDGET, exactly, with the most recent messages', async () => {
    const budget = 220;
    const t = await startTestApp({
      dbPath: `${fixture.dir}/c.sqlite`,
      llmBaseUrl: fake.url,
      env: { CONTEXT_TOKEN_BUDGET: String(budget), SYSTEM_PROMPT: 'Be brief.' },
    });
    try {
      let id: string | undefined;
      for (let i = 1; i <= 8; i++) {
        fake.enqueue({ kind: 'reply', text: `Answer ${i}: it is sunny there today.` });
        const res = await chat(t, { message: sentence(i), conversationId: id }).expect(200);
        id = res.body.conversationId;
        const sent = fake.lastCompletion;
        expect(requestTokens(sent)).toBeLessThanOrEqual(budget);
        expect(sent.body.messages!.at(-1)!.content).toBe(sentence(i));
      }
      const last = fake.lastCompletion.body.messages!;
      // Not everything fits: the oldest turns are left out, the newest kept, in order.
      expect(last.map((m) => m.content)).not.toContain(sentence(1));
      expect(last.at(-2)!.content).toBe('Answer 7: it is sunny there today.');
      // And it is tight: one more (older) message would not have fitted.
      const preview = (await t.http().get(`/api/conversations/${id}/context`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(preview).toMatchObject({ model: 'fake-model', encoding: 'o200k_base', budget, window: 20 });
      expect(preview.omittedForBudget + preview.outsideWindow).toBeGreaterThan(0);
      expect(preview.totalTokens).toBeLessThanOrEqual(budget);
      expect(preview.messages[0]).toEqual({
        kind: 'system',
        role: 'system',
        content: 'Be brief.',
        tokens: countTokens('Be brief.') + 4,
      });
      const previewTotal = 3 + preview.messages.reduce((s: number, m: { tokens: number }) => s + m.tokens, 0);
      expect(previewTotal).toBe(preview.totalTokens);
    } finally {
      await t.close();
    }
  });

  it('refuses a message that alone exceeds the budget (400 with the numbers), storing nothing', async () => {
    const t = await startTestApp({
      dbPath: `${fixture.dir}/c.sqlite`,
      llmBaseUrl: fake.url,
      env: { CONTEXT_TOKEN_BUDGET: '100' },
    });
    try {
      const long = 'word '.repeat(200);
      const res = await chat(t, { message: long }).expect(400);
      expect(res.body).toMatchObject({
        statusCode: 400,
        code: 'context_over_budget',
        budget: 100,
        message: expect.stringMatching(
          /budget of 100 \(CONTEXT_TOKEN_BUDGET\)\. Shorten the message or raise CONTEXT_TOKEN_BUDGET$/,
        ),
      });
      // The numbers in the text are the numbers of the body, and they add up.
      expect(res.body.message).toContain(`The message needs ${res.body.messageTokens} tokens`);
      expect(res.body.message).toContain(
        `with the system prompts (${res.body.systemTokens}) and the request (${res.body.requestTokens}) the turn needs ${res.body.requiredTokens}`,
      );
      expect(res.body.requiredTokens).toBe(res.body.messageTokens + res.body.systemTokens + res.body.requestTokens);
      expect((await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual([]);
      expect(fake.completions).toHaveLength(0);

      // An agent may have a larger budget of its own.
      const agent = (
        await t
          .http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Roomy', contextTokenBudget: 5000 })
          .expect(201)
      ).body;
      await chat(t, { message: long, agentId: agent.id }).expect(200);
    } finally {
      await t.close();
    }
  });

  it('folds what the next turn will not replay into a running summary, a turn ahead, in the background, and sends it', async () => {
    const t = await startTestApp({
      dbPath: `${fixture.dir}/c.sqlite`,
      llmBaseUrl: fake.url,
      env: { HISTORY_WINDOW: '4', SUMMARY_MODE: 'rolling' },
    });
    try {
      const detail = async () => (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body;
      let id = (await chat(t, { message: 'My name is Ada.' }).expect(200)).body.conversationId as string;
      await chat(t, { message: 'I live in Lisbon.', conversationId: id }).expect(200);
      expect(fake.completions.some(isSummaryRequest)).toBe(false);

      // After turn 3 the next turn replays only seq 3-6: the first question and answer are folded now.
      await chat(t, { message: 'I like tea.', conversationId: id }).expect(200);
      await until(async () => (await detail()).summary !== null);
      const first = fake.completions.find(isSummaryRequest)!;
      expect(first.body.messages![1].content).toContain('(none yet)');
      expect(first.body.messages![1].content).toContain('User: My name is Ada.');
      expect(first.body.messages![1].content).not.toContain('I live in Lisbon.');
      const summary = (await detail()).summary;
      expect(summary).toMatchObject({
        coversSeq: 2,
        model: 'fake-model',
        content: expect.stringContaining('Summary so far'),
      });

      // Turn 4 sends it as a system message, and the window; the fold after it builds on the previous summary.
      fake.reset();
      await chat(t, { message: 'What do you know?', conversationId: id }).expect(200);
      const turn = fake.completions[0];
      expect(turn.body.messages![0]).toEqual({
        role: 'system',
        content: expect.stringMatching(/^Summary of the earlier part of this conversation/),
      });
      expect(turn.body.messages!.slice(1, -1).map((m) => m.content)).toEqual([
        'I live in Lisbon.',
        'reply to: I live in Lisbon.',
        'I like tea.',
        'reply to: I like tea.',
      ]);
      await until(async () => (await detail()).summary.coversSeq === 4);
      const second = fake.completions.find(isSummaryRequest)!;
      const prompt = second.body.messages![1].content;
      const cut = prompt.lastIndexOf('\n\nNew messages:\n');
      const [previousPart, newPart] = [prompt.slice(0, cut), prompt.slice(cut)];
      expect(previousPart).toContain(summary.content);
      expect(newPart).toContain('User: I live in Lisbon.');
      expect(newPart).not.toContain('My name is Ada.');
    } finally {
      await t.close();
    }
  });

  it('tolerates a failed summary: the turn is unaffected, the window waits for the fold, which is retried after the next turn', async () => {
    const t = await startTestApp({
      dbPath: `${fixture.dir}/c.sqlite`,
      llmBaseUrl: fake.url,
      env: { HISTORY_WINDOW: '2', SUMMARY_MODE: 'rolling' },
    });
    try {
      const summary = async () =>
        (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.summary;
      const id = (await chat(t, { message: 'one' }).expect(200)).body.conversationId;
      // Turn 2: its reply, then the fold of seq 1-2 (turn 3 replays only seq 3-4), which fails.
      fake.enqueue({ kind: 'reply', text: 'two done' }, { kind: 'status', status: 500 });
      await chat(t, { message: 'two', conversationId: id }).expect(200);
      await until(() => fake.completions.filter(isSummaryRequest).length === 1);
      await new Promise((r) => setTimeout(r, 50));
      expect(await summary()).toBeNull();

      // Turn 3 still shows the model seq 1-2, past the window, since no summary covers them.
      await chat(t, { message: 'three', conversationId: id }).expect(200);
      const turn = fake.completions.filter((r) => !isSummaryRequest(r)).at(-1)!;
      expect(turn.body.messages!.map((m) => m.content)).toEqual(['one', 'reply to: one', 'two', 'two done', 'three']);
      // The retried fold covers everything turn 4 will not replay, seq 1-4.
      await until(async () => (await summary())?.coversSeq === 4);
      const retried = fake.completions.filter(isSummaryRequest).at(-1)!;
      expect(retried.body.messages![1].content).toContain('User: one');
    } finally {
      await t.close();
    }
  });

  it('reports usage per model and per day that adds up, and per conversation', async () => {
    const t = await startTestApp({ dbPath: `${fixture.dir}/c.sqlite`, llmBaseUrl: fake.url });
    try {
      const agent = (
        await t
          .http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Other model', model: 'fake-large' })
          .expect(201)
      ).body;
      fake.enqueue(
        { kind: 'reply', text: 'a', usage: { prompt_tokens: 10, completion_tokens: 1 } },
        { kind: 'reply', text: 'b', usage: { prompt_tokens: 20, completion_tokens: 2 } },
        { kind: 'reply', text: 'c', usage: { prompt_tokens: 40, completion_tokens: 4 } },
      );
      const first = await chat(t, { message: 'x' }).expect(200);
      await chat(t, { message: 'y', conversationId: first.body.conversationId }).expect(200);
      await chat(t, { message: 'z', agentId: agent.id }).expect(200);

      const usage = (await t.http().get('/api/usage').set(auth(ALICE_KEY)).expect(200)).body;
      expect(usage.totals).toEqual({ promptTokens: 70, completionTokens: 7, replies: 3 });
      expect(usage.byModel).toEqual([
        { model: 'fake-large', promptTokens: 40, completionTokens: 4, replies: 1 },
        { model: 'fake-model', promptTokens: 30, completionTokens: 3, replies: 2 },
      ]);
      const today = new Date().toISOString().slice(0, 10);
      expect(usage.byDay).toEqual([{ day: today, promptTokens: 70, completionTokens: 7, replies: 3 }]);

      const onlyAgent = (await t.http().get(`/api/usage?agentId=${agent.id}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(onlyAgent.totals).toEqual({ promptTokens: 40, completionTokens: 4, replies: 1 });
      const none = (await t.http().get('/api/usage?agentId=none').set(auth(ALICE_KEY)).expect(200)).body;
      expect(none.totals.promptTokens).toBe(30);
      const past = (await t.http().get('/api/usage?from=2020-01-01&to=2020-02-01').set(auth(ALICE_KEY)).expect(200))
        .body;
      expect(past.totals).toEqual({ promptTokens: 0, completionTokens: 0, replies: 0 });
      // A date-time without an offset is UTC, whatever the server's time zone; one with an offset keeps it.
      const local = (
        await t
          .http()
          .get('/api/usage?from=2020-01-01T09:00:00&to=2020-01-02T09:00:00%2B01:00')
          .set(auth(ALICE_KEY))
          .expect(200)
      ).body;
      expect([local.from, local.to]).toEqual(['2020-01-01T09:00:00.000Z', '2020-01-02T08:00:00.000Z']);
      await t.http().get('/api/usage?from=yesterday').set(auth(ALICE_KEY)).expect(400);
      await t.http().get('/api/usage?from=2026-02-01&to=2026-01-01').set(auth(ALICE_KEY)).expect(400);

      const conversation = (
        await t.http().get(`/api/conversations/${first.body.conversationId}`).set(auth(ALICE_KEY)).expect(200)
      ).body;
      expect(conversation.usage).toEqual({ promptTokens: 30, completionTokens: 3 });
      // Another actor sees none of it, and alice's agent is unknown to it (the same 404 as a made-up id).
      expect((await t.http().get('/api/usage').set(auth('bob-key-9876543210')).expect(200)).body.totals.replies).toBe(
        0,
      );
      const foreign = (await t.http().get(`/api/usage?agentId=${agent.id}`).set(auth('bob-key-9876543210')).expect(404))
        .body;
      expect(foreign).toMatchObject({ statusCode: 404, code: 'agent_not_found' });
      await t.http().get('/api/usage?agentId=00000000-0000-4000-8000-000000000000').set(auth(ALICE_KEY)).expect(404);
      await t.http().get('/api/usage?agentId=planner').set(auth(ALICE_KEY)).expect(400);
    } finally {
      await t.close();
    }
  });
});
