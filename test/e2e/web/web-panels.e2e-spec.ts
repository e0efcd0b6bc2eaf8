import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { browserFixture, describeInChromium, replies, send, waitText } from '../../support/browser-page.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';
import { until } from '../../support/until.js';

// The page's panels in headless Chromium: agents, threads, session state, context preview and
// the account (usage, export, erase), against the real server and the fake model
// (test/support/browser-page.ts sets them up).

// Functions given to page.evaluate run in the browser; only these of its globals are used.
declare const document: any;

describeInChromium('web page panels in Chromium', panelTests);

function panelTests(): void {
  const fixture = browserFixture();
  const { startService } = fixture;

  const openPage = (url: string, viewport = { width: 1100, height: 760 }): Promise<Page> =>
    fixture.openPage(url, viewport, { acceptDownloads: true });

  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  /** The accessible description of a field: the text of the elements its aria-describedby names. */
  const description = (field: Locator) =>
    field.evaluate((node: any) =>
      String(node.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id: string) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim(),
    );

  it('lists, creates and edits agents, with the API validation messages beside the fields, by keyboard', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();

    await page.getByRole('button', { name: 'Agents' }).focus();
    await page.keyboard.press('Enter');
    const agents = page.getByRole('dialog', { name: 'Agents' });
    await waitText(agents, 'No agents yet');
    expect(await focusedId(page)).toBe('agent-new');
    await page.keyboard.press('Enter');
    const editor = page.getByRole('dialog', { name: 'New agent' });
    await editor.waitFor();
    expect(await focusedId(page)).toBe('agent-name');

    // Nothing is checked by the page: the API's own messages land beside their fields, worded
    // with the labels on screen rather than the API's field names.
    await editor.getByLabel('Temperature').fill('3');
    await editor.getByLabel('Max tokens per reply').fill('2000000');
    await editor.getByLabel('Context token budget').fill('12');
    await editor.getByRole('button', { name: 'Save' }).click();
    const name = editor.getByLabel('Name');
    await until(async () => (await description(name)).includes('Name is required.'));
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('agent-name'); // the first field to fix
    expect(await description(name)).toBe('Name is required.');
    expect(await description(editor.getByLabel('Temperature'))).toBe('Temperature must not be greater than 2.');
    expect(await description(editor.getByLabel('Max tokens per reply'))).toBe(
      'Max tokens per reply must not be greater than 1000000.',
    );
    expect(await description(editor.getByLabel('Context token budget'))).toBe(
      'Context token budget must not be less than 100.',
    );
    expect(await description(editor.getByLabel('Model', { exact: true }))).toBe('');
    expect((await t.http().get('/api/agents').expect(200)).body.items).toEqual([]);

    await name.fill('Travel planner');
    await editor.getByLabel('Emoji').fill('🧳');
    await editor.getByLabel('Description').fill('Plans trips');
    await editor.getByLabel('System prompt').fill('You plan trips.');
    await editor.getByLabel('Model', { exact: true }).fill('gpt-4o-mini');
    await editor.getByLabel('Temperature').fill('0.4');
    await editor.getByLabel('Max tokens per reply').fill('300');
    await editor.getByLabel('Context token budget').fill('5000');
    await editor.getByLabel(/update_state/).check();
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'hidden' });
    await waitText(agents.getByRole('list', { name: 'Your agents' }), '🧳 Travel planner');
    const [created] = (await t.http().get('/api/agents').expect(200)).body.items;
    expect(created).toMatchObject({
      name: 'Travel planner',
      emoji: '🧳',
      description: 'Plans trips',
      systemPrompt: 'You plan trips.',
      model: 'gpt-4o-mini',
      temperature: 0.4,
      maxTokens: 300,
      contextTokenBudget: 5000,
      tools: ['update_state'],
    });
    // The picker of a new chat has it too.
    await until(async () =>
      (await page.locator('#agent-select option').allTextContents()).includes('🧳 Travel planner'),
    );

    // Editing: a cleared field is cleared (null), the others kept.
    await agents.getByRole('button', { name: 'Edit 🧳 Travel planner' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Travel planner' });
    expect(await edit.getByLabel('System prompt').inputValue()).toBe('You plan trips.');
    await edit.getByLabel('Temperature').fill('');
    await edit.getByLabel('Max tokens per reply').fill('many');
    await edit.getByRole('button', { name: 'Save' }).click();
    await until(async () =>
      (await description(edit.getByLabel('Max tokens per reply'))).startsWith('Max tokens per reply must'),
    );
    await edit.getByLabel('Max tokens per reply').fill('');
    await edit.getByLabel(/update_state/).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await until(async () => (await t.http().get(`/api/agents/${created.id}`).expect(200)).body.temperature === null);
    expect((await t.http().get(`/api/agents/${created.id}`).expect(200)).body).toMatchObject({
      maxTokens: null,
      tools: [],
      systemPrompt: 'You plan trips.',
      emoji: '🧳',
    });
    expect(await focusedId(page)).toBe(''); // not lost in a closed dialog...
    // ...but back on the button that opened the editor, when closed with Escape.
    await agents.getByRole('button', { name: 'Edit 🧳 Travel planner' }).focus();
    await page.keyboard.press('Enter');
    await edit.waitFor();
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Edit 🧳 Travel planner',
    );
    await page.keyboard.press('Escape');
    await agents.waitFor({ state: 'hidden' });
    expect(await focusedId(page)).toBe('open-agents');
  });

  it('starts a chat with an agent; deleting an agent in use asks whether to keep or delete its conversations', async () => {
    const { base, t } = await startService();
    const planner = (
      await t.http().post('/api/agents').send({ name: 'Travel planner', systemPrompt: 'You plan trips.' }).expect(201)
    ).body;
    const cook = (await t.http().post('/api/agents').send({ name: 'Cook', systemPrompt: 'You cook.' }).expect(201))
      .body;
    const cooking = (await t.http().post('/api/chat').send({ message: 'Bake bread', agentId: cook.id }).expect(200))
      .body.conversationId;
    const page = await openPage(base);
    await page.getByRole('button', { name: 'Agents' }).click();
    const agents = page.getByRole('dialog', { name: 'Agents' });
    await agents.getByRole('button', { name: 'Start a chat with Travel planner' }).click();
    await agents.waitFor({ state: 'hidden' });
    expect(await page.getByRole('combobox', { name: 'Agent', exact: true }).inputValue()).toBe(planner.id);
    await send(page, 'Plan a day in Lisbon');
    await waitText(replies(page), 'reply to: Plan a day in Lisbon');
    await waitText(page.locator('#agent-badge'), 'Agent: Travel planner');
    expect(fixture.fake.lastCompletion.body.messages![0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You plan trips.'),
    });
    const lisbon = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())![1];

    // In use, kept: its conversation stays, without an agent (the open one says so at once).
    await page.getByRole('button', { name: 'Agents' }).click();
    await agents.getByRole('button', { name: 'Delete Travel planner' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the agent “Travel planner”?' });
    await confirm.waitFor();
    expect(await confirm.getByRole('button', { name: 'Keep the conversations' }).isVisible()).toBe(false);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    const inUse = page.getByRole('dialog', { name: '“Travel planner” has 1 conversation' });
    await inUse.waitFor();
    expect(await focusedId(page)).toBe(''); // on Cancel, the safe choice
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await inUse.getByRole('button', { name: 'Keep the conversations' }).click();
    await waitText(page.locator('#agents-status'), 'Deleted Travel planner; 1 conversation kept without an agent.');
    await t.http().get(`/api/agents/${planner.id}`).expect(404);
    expect((await t.http().get(`/api/conversations/${lisbon}`).expect(200)).body.agentId).toBeNull();
    await waitText(page.locator('#agent-badge'), 'No agent');

    // In use, deleted with its conversations.
    await agents.getByRole('button', { name: 'Delete Cook' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the agent “Cook”?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await page
      .getByRole('dialog', { name: '“Cook” has 1 conversation' })
      .getByRole('button', { name: 'Delete the conversations' })
      .click();
    await waitText(page.locator('#agents-status'), 'Deleted Cook; 1 conversation deleted.');
    await t.http().get(`/api/conversations/${cooking}`).expect(404);
    await t.http().get(`/api/conversations/${lisbon}`).expect(200);
    expect(await agents.getByRole('listitem').count()).toBe(0);
    await until(async () => (await page.locator('#conversation-list a', { hasText: 'Bake bread' }).count()) === 0);
    // Cancelling the question deletes nothing.
    const spare = (await t.http().post('/api/agents').send({ name: 'Spare' }).expect(201)).body;
    await t.http().post('/api/chat').send({ message: 'hi', agentId: spare.id }).expect(200);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Agents' }).click();
    await agents.getByRole('button', { name: 'Delete Spare' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the agent “Spare”?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await page
      .getByRole('dialog', { name: '“Spare” has 1 conversation' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await t.http().get(`/api/agents/${spare.id}`).expect(200);
  });

  it('switches threads and starts one with its own system prompt', async () => {
    const { base, t } = await startService();
    const id = (await t.http().post('/api/chat').send({ message: 'Main question' }).expect(200)).body.conversationId;
    const page = await openPage(`${base}#/c/${id}`);
    await waitText(replies(page), 'reply to: Main question');
    const threads = page.getByLabel('Thread', { exact: true });
    expect(await threads.locator('option').allTextContents()).toEqual(['main']);

    await page.getByRole('button', { name: 'New thread' }).click();
    const dialog = page.getByRole('dialog', { name: 'New thread' });
    expect(await focusedId(page)).toBe('thread-name');
    await dialog.getByLabel('Name').fill('Food Ideas');
    await dialog.getByRole('button', { name: 'Start the thread' }).click();
    await waitText(dialog.getByRole('alert'), 'a-z, 0-9');
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Name').fill('food');
    await dialog.getByLabel('System prompt (optional)').fill('Only talk about food.');
    await dialog.getByRole('button', { name: 'Start the thread' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await threads.inputValue()).toBe('food');
    expect(await threads.locator('option:checked').textContent()).toBe('food (new)');
    expect(await replies(page).count()).toBe(0);
    expect(await focusedId(page)).toBe('message');

    await send(page, 'Where to eat?');
    await waitText(replies(page), 'reply to: Where to eat?');
    const sent = fixture.fake.lastCompletion.body.messages!;
    expect(sent.some((m) => m.role === 'system' && m.content.includes('Only talk about food.'))).toBe(true);
    expect(sent.some((m) => m.content.includes('Main question'))).toBe(false); // its own history
    await until(async () => (await threads.locator('option:checked').textContent()) === 'food');
    const stored = (await t.http().get(`/api/conversations/${id}`).expect(200)).body;
    expect(
      stored.threads.map((th: { name: string; systemPrompt: string | null }) => [th.name, th.systemPrompt]),
    ).toEqual([
      ['main', null],
      ['food', 'Only talk about food.'],
    ]);

    // The second turn keeps the thread's prompt without sending it again; regenerate stays in the thread.
    await send(page, 'And dessert?');
    await waitText(replies(page), 'reply to: And dessert?');
    expect(fixture.fake.lastCompletion.body.messages!.some((m) => m.content.includes('Where to eat?'))).toBe(true);
    await page.getByRole('button', { name: 'Regenerate the last reply' }).click();
    await until(
      async () =>
        (await t.http().get(`/api/conversations/${id}?thread=food`).expect(200)).body.messages.at(-1).versions
          .length === 1,
    );

    await threads.selectOption('main');
    await until(
      async () =>
        (await replies(page).locator('.message-body').allInnerTexts()).join('|') === 'reply to: Main question',
    );
    await threads.selectOption('food');
    await until(async () => (await replies(page).count()) === 2);
    // Reloading shows main again, with both threads to pick from.
    await page.reload();
    await waitText(replies(page), 'reply to: Main question');
    expect(await threads.locator('option').allTextContents()).toEqual(['main', 'food']);
  });

  it('edits the session state as JSON, showing the API errors, and shows the context preview and token usage', async () => {
    const { base, t } = await startService();
    const id = (await t.http().post('/api/chat').send({ message: 'Plan Lisbon' }).expect(200)).body.conversationId;
    const page = await openPage(`${base}#/c/${id}`);
    await waitText(replies(page), 'reply to: Plan Lisbon');

    await page.getByRole('button', { name: 'Session state' }).click();
    const dialog = page.getByRole('dialog', { name: 'Session state' });
    const input = dialog.getByLabel('State (JSON)');
    await until(async () => (await input.inputValue()) === '{}');
    expect(await focusedId(page)).toBe('state-input');
    await input.fill('{"city": ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await waitText(dialog.getByRole('alert'), 'This is not valid JSON');
    await input.fill('[1, 2]');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await waitText(dialog.getByRole('alert'), 'The server refused it: ');
    const refusal = await dialog.getByRole('alert').textContent();
    const api = await t.http().put(`/api/conversations/${id}/state`).send([1, 2]).expect(400);
    expect(refusal).toBe(`The server refused it: ${api.body.message}`);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await input.fill('{"city": "Lisbon", "days": 3}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await t.http().get(`/api/conversations/${id}/state`).expect(200)).body).toEqual({
      city: 'Lisbon',
      days: 3,
    });
    expect(await focusedId(page)).toBe('open-state');
    await page.keyboard.press('Enter'); // opened again: what the server holds
    await until(async () => (await input.inputValue()).includes('"city": "Lisbon"'));
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Context and token usage' }).click();
    const context = page.getByRole('dialog', { name: 'Context and token usage' });
    const preview = (await t.http().get(`/api/conversations/${id}/context`).expect(200)).body;
    const usage = (await t.http().get(`/api/conversations/${id}`).expect(200)).body.usage;
    await waitText(
      context,
      `Model ${preview.model}: ${preview.totalTokens} of ${preview.budget.toLocaleString('en')} tokens used`,
    );
    expect(await context.locator('#conversation-usage').textContent()).toBe(
      `${usage.promptTokens} prompt tokens and ${usage.completionTokens} completion tokens, ${usage.promptTokens + usage.completionTokens} in all (every thread).`,
    );
    const parts = context.getByRole('listitem');
    expect(await parts.count()).toBe(preview.messages.length);
    expect(await parts.allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Lisbon'),
        expect.stringContaining('Plan Lisbon'),
        expect.stringContaining('reply to: Plan Lisbon'),
      ]),
    );
    expect(await focusedId(page)).toBe('context-close');
    await page.keyboard.press('Enter');
    await context.waitFor({ state: 'hidden' });
    expect(await focusedId(page)).toBe('open-context');
  });

  it('shows usage per day and model, downloads everything, and erases everything after a typed confirmation (with an API key)', async () => {
    const { base, t } = await startService({ API_KEYS: `alice:${ALICE_KEY}` });
    await t.http().post('/api/agents').set(auth(ALICE_KEY)).send({ name: 'Helper' }).expect(201);
    const first = (await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'First chat' }).expect(200))
      .body.conversationId;
    await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'Second chat' }).expect(200);
    await t.http().post('/api/memories').set(auth(ALICE_KEY)).send({ text: 'Prefers tea' }).expect(201);
    const page = await openPage(`${base}#/c/${first}`);
    const key = page.getByRole('dialog', { name: 'API key' });
    await key.getByLabel('Key').fill(ALICE_KEY);
    await key.getByRole('button', { name: 'Continue' }).click();
    await waitText(replies(page), 'reply to: First chat');

    await page.getByRole('button', { name: 'Account' }).click();
    const account = page.getByRole('dialog', { name: 'Account' });
    const usage = (await t.http().get('/api/usage').set(auth(ALICE_KEY)).expect(200)).body;
    expect(usage.totals.replies).toBe(2);
    await waitText(account.getByRole('status').first(), `in 2 replies`);
    expect(await account.locator('#usage-totals').textContent()).toBe(
      `${usage.totals.promptTokens} prompt and ${usage.totals.completionTokens} completion tokens in 2 replies.`,
    );
    const byDay = account.getByRole('table', { name: 'Per day (UTC)' });
    expect(await byDay.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      String(usage.byDay[0].promptTokens),
      String(usage.byDay[0].completionTokens),
      '2',
    ]);
    expect(await byDay.getByRole('rowheader').allTextContents()).toEqual([usage.byDay[0].day]);
    const byModel = account.getByRole('table', { name: 'Per model' });
    expect(await byModel.getByRole('rowheader').allTextContents()).toEqual(
      usage.byModel.map((m: { model: string }) => m.model),
    );
    // A period without replies says so.
    await account.getByLabel('From').fill('2020-01-01');
    await account.getByLabel('To (inclusive)').fill('2020-01-31');
    await account.getByRole('button', { name: 'Show' }).click();
    await waitText(account.locator('#usage-totals'), 'No replies in this period.');
    expect(await account.getByRole('table').count()).toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      account.getByRole('button', { name: 'Download everything' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^chat-memory-alice-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported).toMatchObject({ format: 'chat-memory.account', actor: 'api:alice' });
    expect(exported.conversations).toHaveLength(2);
    expect(exported.agents.map((a: { name: string }) => a.name)).toEqual(['Helper']);
    await waitText(account.locator('#export-status'), `Downloaded ${download.suggestedFilename()}.`);

    // Erasing needs the phrase typed out.
    const erase = account.getByRole('button', { name: 'Erase everything' });
    expect(await erase.isDisabled()).toBe(true);
    await account.getByLabel('Confirmation').fill('erase');
    expect(await erase.isDisabled()).toBe(true);
    // The confirmation names everything that goes, memories and share links included, and what stays.
    const warning = (await description(account.getByLabel('Confirmation'))).replace(/\s+/g, ' ');
    for (const what of ['conversation', 'message', 'share link', 'agent', 'memor', 'API keys stay', 'cannot be undone'])
      expect(warning).toContain(what);
    expect(warning).toContain('Type erase everything to confirm');
    await account.getByLabel('Confirmation').fill('erase everything');
    await erase.click();
    await waitText(account.locator('#erase-status'), 'Erased 2 conversations, 4 messages, 1 agent and 1 memory.');
    expect((await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual([]);
    expect((await t.http().get('/api/agents').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual([]);
    await until(async () => (await page.locator('#conversation-list a').count()) === 0);
    await until(async () => (await page.locator('#agent-select option').count()) === 1);
    expect(page.url()).not.toMatch(/#\/c\//); // a new chat
    await page.keyboard.press('Escape');
    await account.waitFor({ state: 'hidden' });
  });

  it('filters the usage per day and model by agent, or to the conversations without one', async () => {
    const { base, t } = await startService();
    const helper = (await t.http().post('/api/agents').send({ name: 'Helper', emoji: '🛠' }).expect(201)).body;
    fixture.fake.enqueue(
      { kind: 'reply', text: 'a', usage: { prompt_tokens: 10, completion_tokens: 1 } },
      { kind: 'reply', text: 'b', usage: { prompt_tokens: 20, completion_tokens: 2 } },
      { kind: 'reply', text: 'c', usage: { prompt_tokens: 40, completion_tokens: 4 } },
    );
    await t.http().post('/api/chat').send({ message: 'First chat' }).expect(200);
    await t.http().post('/api/chat').send({ message: 'Second chat' }).expect(200);
    await t.http().post('/api/chat').send({ message: 'Helped chat', agentId: helper.id }).expect(200);
    const page = await openPage(base);
    await page.getByRole('button', { name: 'Account' }).click();
    const account = page.getByRole('dialog', { name: 'Account' });
    const totals = account.locator('#usage-totals');
    await waitText(totals, '70 prompt and 7 completion tokens in 3 replies.');
    const agent = account.getByLabel('Agent', { exact: true });
    expect(await agent.locator('option').allTextContents()).toEqual(['All agents', 'No agent', '🛠 Helper']);
    expect(await agent.inputValue()).toBe('');

    await agent.selectOption(helper.id);
    await account.getByRole('button', { name: 'Show' }).click();
    await waitText(totals, '40 prompt and 4 completion tokens in 1 reply.');
    const byDay = account.getByRole('table', { name: 'Per day (UTC)' });
    expect(await byDay.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['40', '4', '1']);
    await agent.selectOption({ label: 'No agent' });
    await account.getByRole('button', { name: 'Show' }).click();
    await waitText(totals, '30 prompt and 3 completion tokens in 2 replies.');
    expect(
      await account
        .getByRole('table', { name: 'Per model' })
        .getByRole('row')
        .nth(1)
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['30', '3', '2']);

    // An agent deleted meanwhile: the API's 404 is said in the dialog, and the picker offers what is left.
    await agent.selectOption(helper.id);
    await t.http().delete(`/api/agents/${helper.id}?conversations=detach`).expect(200);
    await account.getByRole('button', { name: 'Show' }).click();
    await waitText(account.getByRole('alert'), 'Helper');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account' }).click();
    await waitText(totals, 'in 3 replies.');
    expect(await agent.locator('option').allTextContents()).toEqual(['All agents', 'No agent']);
  });

  it('says what to do where there is nothing yet: a new chat, the list, agents, memory, usage, a new thread', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await waitText(page.locator('#empty-hint'), 'Start a conversation');
    await waitText(page.locator('#empty-hint'), 'Type a message below.');
    await waitText(page.locator('#list-status'), 'No conversations yet. Write a message to start one');

    await page.getByRole('button', { name: 'Agents' }).click();
    await waitText(page.locator('#agents-status'), 'No agents yet: “New agent” makes one.');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Memory' }).click();
    const memory = page.getByRole('dialog', { name: 'Memory' });
    await waitText(
      memory.getByRole('status'),
      'Nothing remembered yet. Write below what every conversation should know',
    );
    await memory.getByLabel('Search memories').fill('lyon');
    await memory.getByRole('button', { name: 'Search' }).click();
    await waitText(memory.getByRole('status'), 'No memory holds these words.');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account' }).click();
    await waitText(page.locator('#usage-totals'), 'No replies in this period.');
    await page.keyboard.press('Escape');

    // A new thread is empty too: its hint says that its first message starts it.
    await send(page, 'Hello');
    await waitText(replies(page), 'reply to: Hello');
    expect(await page.locator('#empty-hint').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'New thread' }).click();
    const dialog = page.getByRole('dialog', { name: 'New thread' });
    await dialog.getByLabel('Name').fill('ideas');
    await dialog.getByRole('button', { name: 'Start the thread' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitText(page.locator('#empty-hint'), 'The thread “ideas” is empty');
    await send(page, 'First idea');
    await waitText(replies(page), 'reply to: First idea');
    expect(await page.locator('#empty-hint').isVisible()).toBe(false);
  });

  it('names every panel dialog and labels every control in them', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    const unlabelled = await page.evaluate(() => {
      const ids = [
        'agents-dialog',
        'agent-editor',
        'agent-delete-dialog',
        'thread-dialog',
        'state-dialog',
        'context-dialog',
        'account-dialog',
      ];
      const problems: string[] = [];
      const named = (node: any) =>
        Boolean(node.getAttribute('aria-label')) ||
        String(node.getAttribute('aria-labelledby') ?? '')
          .split(' ')
          .some((id: string) => document.getElementById(id)?.textContent?.trim());
      for (const id of ids) {
        const dialog = document.getElementById(id);
        if (!dialog) problems.push(`no #${id}`);
        else if (!named(dialog)) problems.push(`#${id} has no name`);
        for (const control of dialog?.querySelectorAll('input, textarea, select') ?? []) {
          if (!(control.labels?.length > 0 || named(control)))
            problems.push(`#${id} ${control.id || control.name}: no label`);
        }
        for (const button of dialog?.querySelectorAll('button') ?? []) {
          if (!(button.textContent.trim() || named(button))) problems.push(`#${id}: a button without a name`);
        }
      }
      return problems;
    });
    expect(unlabelled).toEqual([]);
  });

  it('fits 390 px: the panels open from the drawer and the title bar, inside the screen', async () => {
    const { base, t } = await startService();
    const id = (await t.http().post('/api/chat').send({ message: 'Narrow chat' }).expect(200)).body.conversationId;
    const page = await openPage(`${base}#/c/${id}`, { width: 390, height: 800 });
    await waitText(replies(page), 'reply to: Narrow chat');
    const inside = async (dialog: Locator) => {
      const box = (await dialog.boundingBox())!;
      const scrolls = await dialog.evaluate((node: any) => node.scrollWidth > node.clientWidth);
      return box.x >= 0 && box.x + box.width <= 390 && !scrolls;
    };
    for (const [button, name] of [
      ['Session state', 'Session state'],
      ['Context and token usage', 'Context and token usage'],
      ['New thread', 'New thread'],
    ]) {
      await page.getByRole('button', { name: button }).click();
      const dialog = page.getByRole('dialog', { name });
      await dialog.waitFor();
      expect(await inside(dialog)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.getByRole('button', { name: 'Show conversations' }).click();
    await page.getByRole('button', { name: 'Account' }).click();
    const account = page.getByRole('dialog', { name: 'Account' });
    await waitText(account.locator('#usage-totals'), 'in 1 reply');
    expect(await inside(account)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Agents' }).click();
    await page.getByRole('dialog', { name: 'Agents' }).getByRole('button', { name: 'New agent' }).click();
    const editor = page.getByRole('dialog', { name: 'New agent' });
    await editor.waitFor();
    expect(await inside(editor)).toBe(true);
  });
}
