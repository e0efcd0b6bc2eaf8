import {
  browserFixture,
  describeInChromium,
  replies,
  send,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';
import { until } from '../../support/until.js';

// What a reply carries besides its text, on the page: the tools the model called (with their
// results) and a reasoning model's thinking, each collapsed, live and after a reload; and the
// model picker. Chromium, the SQLite pass only (the page, not the database).

describeInChromium('web page: tool calls, reasoning and the model picker in Chromium', extrasTests);

function extrasTests(): void {
  const fixture = browserFixture();

  it('shows each tool call and its result, collapsed, in the reply, also after a reload', async () => {
    const { base, t } = await fixture.startService();
    const agent = (
      await t
        .http()
        .post('/api/agents')
        .send({ name: 'Keeper', tools: ['remember'] })
        .expect(201)
    ).body;
    const conversation = (await t.http().post('/api/conversations').send({ agentId: agent.id }).expect(201)).body;
    fixture.fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'remember', arguments: '{"text":"Likes green tea"}' }] },
      { kind: 'reply', text: 'Noted: green tea.' },
    );
    const page = await fixture.openPage(`${base}/#/c/${conversation.id}`);
    await send(page, 'Remember that I like green tea');
    const reply = replies(page).last();
    await waitText(reply, 'Noted: green tea.');

    for (const pass of ['live', 'reloaded']) {
      const calls = reply.locator('details.tool-calls');
      await calls.waitFor();
      expect([pass, await calls.locator('summary').textContent()]).toEqual([pass, 'Used a tool: remember']);
      expect(await calls.evaluate((d: { open: boolean }) => d.open)).toBe(false);
      await calls.locator('summary').click();
      await waitText(calls, 'Likes green tea');
      expect(await calls.textContent()).toContain('"ok": true');
      expect(await seriousViolations(page)).toEqual([]);
      await page.reload();
      await waitText(replies(page).last(), 'Noted: green tea.');
    }
  }, 60_000);

  it('shows a reasoning model\'s thinking collapsed, as "Thought for n s", also after a reload', async () => {
    const { base } = await fixture.startService();
    fixture.fake.enqueue({
      kind: 'stream',
      reasoning: ['Green ', 'is ', 'a colour.'],
      chunks: ['Green', ' it is.'],
      chunkDelayMs: 20,
    });
    const page = await fixture.openPage(base);
    await send(page, 'Pick a colour');
    const reply = replies(page).last();
    await waitText(reply, 'Green it is.');

    for (const pass of ['live', 'reloaded']) {
      const thought = reply.locator('details.reasoning');
      await thought.waitFor();
      expect([pass, await thought.locator('summary').textContent()]).toEqual([
        pass,
        expect.stringMatching(/^Thought for \d+ s$/),
      ]);
      expect(await thought.evaluate((d: { open: boolean }) => d.open)).toBe(false);
      await thought.locator('summary').click();
      await waitText(thought, 'Green is a colour.');
      // The thinking is not part of the reply's text.
      expect((await reply.locator('.message-body').textContent())?.trim()).toBe('Green it is.');
      await page.reload();
      await waitText(replies(page).last(), 'Green it is.');
    }
  }, 60_000);

  it('picks the model of a new chat and of the conversation shown, kept after a reload', async () => {
    const { base, t } = await fixture.startService({ LLM_MODELS: 'small-model,big-model' });
    const page = await fixture.openPage(base);
    const picker = page.getByRole('combobox', { name: 'Model', exact: true });
    await page.locator('#model-select option[value="small-model"]').waitFor({ state: 'attached' });
    expect(await picker.inputValue()).toBe('');
    await picker.selectOption('small-model');
    await send(page, 'Hello small');
    await waitText(replies(page).last(), 'reply to: Hello small');
    expect(fixture.fake.lastCompletion.body.model).toBe('small-model');

    await picker.selectOption('big-model');
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    await until(async () => (await t.http().get(`/api/conversations/${id}`).expect(200)).body.model === 'big-model');
    await send(page, 'Hello big');
    await waitText(replies(page).last(), 'reply to: Hello big');
    expect(fixture.fake.lastCompletion.body.model).toBe('big-model');
    expect(await seriousViolations(page)).toEqual([]);

    await page.reload();
    await waitText(replies(page).last(), 'reply to: Hello big');
    expect(await picker.inputValue()).toBe('big-model');
  }, 60_000);
}
