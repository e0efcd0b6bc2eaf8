import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { RecordedRequest } from '../../fakes/fake-openai-server.js';
import { useFakeModelAndTempDir } from '../../support/app-fixture.js';
import { Summarizer } from '../../../src/chat/summarizer.js';
import { ALICE_KEY, auth, startTestApp, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

/**
 * The rolling summary's promise: on every turn, every earlier message of the thread reaches the
 * model, in the replayed history or in the summary it is sent. Each message carries a marker
 * (`[main:q3]`, `[main:a3]`); the fake's summary lists the markers of what it folded, so the
 * coverage of every request the model gets can be checked, whatever order turns and folds run in.
 */
const MARKER = /\[[a-z]+:[qa]\d+\]/g;
const QUESTION = /\[([a-z]+):q(\d+)\]/;
const isSummaryRequest = (req: RecordedRequest) => req.body.messages![0].content.includes('running summary');
const requestTokens = (req: RecordedRequest) =>
  3 + req.body.messages!.reduce((sum, m) => sum + countTokens(m.content ?? '') + 4, 0);
const SENTENCE = 'The weather in the city with the long name was mild, and nothing else happened.';

/** The earlier messages of a turn's thread that its request does not show the model. */
function missingFrom(req: RecordedRequest): string[] {
  const messages = req.body.messages!;
  const [, thread, n] = messages.at(-1)!.content.match(QUESTION)!;
  const shown = messages
    .slice(0, -1)
    .map((m) => m.content)
    .join('\n');
  const expected = Array.from({ length: Number(n) - 1 }, (_, i) => [
    `[${thread}:q${i + 1}]`,
    `[${thread}:a${i + 1}]`,
  ]).flat();
  return expected.filter((m) => !shown.includes(m));
}

describe('rolling summary: no earlier message is ever out of both the window and the summary', () => {
  const fixture = useFakeModelAndTempDir();

  /**
   * Drives turns against an app whose folds can be made slower than the user: a held fold
   * answers only once the next turn has been planned (its question stored, or its request made).
   */
  function driver(t: TestApp, holdFolds: boolean, padding = SENTENCE) {
    // Folds of a thread are held until that thread's next turn has been planned.
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const gate = (thread: string) => gates.get(thread) ?? gates.set(thread, deferred()).get(thread)!;
    let planning = false;
    // The newest question of each thread the model has been asked.
    const asked = new Map<string, number>();
    fixture.fake.respondWith((body) => {
      const messages = body.messages!;
      if (messages[0].content.includes('running summary')) {
        const prompt = messages[1].content;
        const covered = [...new Set(prompt.match(MARKER) ?? [])];
        // A fold after a turn never takes that turn's question; one that does is the next turn
        // catching up, on the user's wait: never hold it.
        const fresh = prompt.slice(prompt.lastIndexOf('\n\nNew messages:\n'));
        const catchUp = [...asked].some(([thread, n]) => fresh.includes(`[${thread}:q${n}]`));
        const thread = fresh.match(QUESTION)?.[1] ?? fresh.match(/\[([a-z]+):a\d+\]/)![1];
        return {
          kind: 'reply',
          text: `Covered: ${covered.join(' ')}`,
          hold: holdFolds && !catchUp ? gate(thread).promise : undefined,
        };
      }
      planning = false;
      const [, thread, n] = messages.at(-1)!.content.match(QUESTION)!;
      asked.set(thread, Math.max(asked.get(thread) ?? 0, Number(n)));
      return { kind: 'reply', text: `Noted [${thread}:a${n}]. ${padding}` };
    });
    let id: string | undefined;
    const stored = async (marker: string, thread: string) =>
      id !== undefined &&
      (
        await t
          .http()
          .get(`/api/conversations/${id}/messages?thread=${thread}&limit=2`)
          .set(auth(ALICE_KEY))
          .expect(200)
      ).body.items.some((m: { content: string }) => m.content.includes(marker));

    /**
     * One turn (or a regeneration); `releaseWhen` says when the folds held so far may answer.
     * Folds that keep up are waited for after the turn.
     */
    async function turn(
      thread: string,
      n: number,
      releaseWhen: 'requested' | 'stored',
      options: { regenerate?: boolean; message?: string } = {},
    ): Promise<void> {
      const marker = `[${thread}:q${n}]`;
      planning = true;
      const request = options.regenerate
        ? t.http().post(`/api/conversations/${id}/regenerate`).set(auth(ALICE_KEY)).send({ thread })
        : t
            .http()
            .post('/api/chat')
            .set(auth(ALICE_KEY))
            .send({ message: `${marker} ${options.message ?? padding}`, conversationId: id, thread });
      const answered = request.then((res) => res);
      if (holdFolds && id !== undefined) {
        await until(async () => !planning || (releaseWhen === 'stored' && (await stored(marker, thread))), 10_000);
        const held = gate(thread);
        gates.delete(thread);
        held.resolve();
      }
      const res = await answered;
      expect(res.status).toBe(200);
      id = res.body.conversationId;
      planning = false;
      if (!holdFolds) await t.app.get(Summarizer).idle();
    }
    return { turn, release: () => gates.forEach((g) => g.resolve()) };
  }

  const turnRequests = () => fixture.fake.completions.filter((r) => !isSummaryRequest(r));

  it.each([
    ['folds that keep up', false],
    ['folds slower than the user', true],
  ])('window count (HISTORY_WINDOW), two threads and a regeneration, with %s', async (_, holdFolds) => {
    const t = await startTestApp({
      dbPath: `${fixture.dir}/c.sqlite`,
      llmBaseUrl: fixture.fake.url,
      env: { HISTORY_WINDOW: '4', SUMMARY_MODE: 'rolling' },
    });
    const { turn, release } = driver(t, holdFolds);
    try {
      for (let n = 1; n <= 8; n++) {
        // The window only limits the count: a turn never waits for a fold, held or not.
        await turn('main', n, 'requested');
        await turn('side', n, 'requested');
        if (n === 5) await turn('main', n, 'requested', { regenerate: true });
      }
      const requests = turnRequests();
      expect(requests).toHaveLength(17);
      for (const req of requests) expect(missingFrom(req)).toEqual([]);
      // The summary does its job: the last turn does not replay the whole thread.
      expect(requests.at(-1)!.body.messages!.length).toBeLessThan(15);
    } finally {
      release();
      await t.close();
    }
  });

  it.each([
    ['folds that keep up', false],
    ['folds slower than the user', true],
  ])(
    'token budget (CONTEXT_TOKEN_BUDGET), a question much longer than the others, and a regeneration, with %s',
    async (_, holdFolds) => {
      const budget = 1500;
      const t = await startTestApp({
        dbPath: `${fixture.dir}/c.sqlite`,
        llmBaseUrl: fixture.fake.url,
        env: { CONTEXT_TOKEN_BUDGET: String(budget), SYSTEM_PROMPT: 'Be brief.', SUMMARY_MODE: 'rolling' },
      });
      const { turn, release } = driver(t, holdFolds, `${SENTENCE} ${SENTENCE} ${SENTENCE} ${SENTENCE}`);
      const LONG = 12;
      try {
        for (let n = 1; n <= 16; n++) {
          const before = fixture.fake.completions.length;
          await turn('main', n, 'stored', n === LONG ? { message: SENTENCE.repeat(60) } : {});
          if (n === 10) await turn('main', n, 'stored', { regenerate: true });
          // A fold that keeps up is made after the reply, never on the next turn's wait: only a
          // question far longer than the one before it can find the summary behind.
          if (!holdFolds) expect(isSummaryRequest(fixture.fake.completions[before])).toBe(n === LONG);
        }
        const requests = turnRequests();
        expect(requests).toHaveLength(17);
        for (const req of requests) {
          expect(requestTokens(req)).toBeLessThanOrEqual(budget);
          expect(missingFrom(req)).toEqual([]);
        }
        // The budget did bind: the last turn replays only part of the thread.
        expect(requests.at(-1)!.body.messages!.length).toBeLessThan(20);
      } finally {
        release();
        await t.close();
      }
    },
  );
});
