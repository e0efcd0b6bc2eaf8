import type { Locator, Page } from 'playwright-core';
import {
  browserFixture,
  composer,
  describeInChromium,
  openId,
  replies,
  send,
  sendButton,
  seriousViolations,
  stopButton,
  waitText,
} from '../../support/browser-page.js';
import { deferred } from '../../support/until.js';

// The conversation as a tree on the web page: Edit on the user's messages (streamed like a
// send), ‹ n/m › between versions, what the model receives on the branch shown, regenerate as
// a sibling. Same rules as web.e2e-spec.ts: Chromium, the SQLite pass only.

declare const document: any;

describeInChromium('web page branches in Chromium', branchTests);

function branchTests(): void {
  const fixture = browserFixture();
  const { startService, openPage } = fixture;
  const fake = () => fixture.fake;
  const questions = (page: Page) => page.locator('.message.user');
  const versions = (message: Locator) => message.locator('.branch-switch');
  const previous = (message: Locator) => message.getByRole('button', { name: 'Previous version' });
  const next = (message: Locator) => message.getByRole('button', { name: 'Next version' });
  const texts = async (locator: Locator) =>
    (await locator.locator('.message-body').allTextContents()).map((text) => text.trim());
  /** What the model was sent last, as role: content lines. */
  const sentToModel = () =>
    (fake().lastCompletion.body.messages ?? [])
      .filter((m) => m.role !== 'system')
      .map((m) => `${m.role}: ${m.content}`);

  async function ask(page: Page, text: string): Promise<void> {
    await send(page, text);
    await waitText(replies(page).last(), `reply to: ${text}`);
    await sendButton(page).waitFor();
  }

  async function edit(page: Page, message: Locator, text: string): Promise<void> {
    await message.getByRole('button', { name: 'Edit your message' }).click();
    const box = message.getByRole('textbox', { name: 'Edit your message' });
    await box.fill(text);
    await box.press('Enter');
  }

  it('edits a question: the new answer streams in, ‹ 2/2 › flips back to the old branch, and the next turn continues the branch shown', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    await ask(page, 'Plan a trip to Porto');
    await ask(page, 'Three days');
    const id = openId(page)!;
    expect(await versions(questions(page).first()).count()).toBe(0); // one version: no switch

    // Escape puts the message back as it was, unchanged on the server.
    const first = questions(page).first();
    await first.getByRole('button', { name: 'Edit your message' }).click();
    const box = first.getByRole('textbox', { name: 'Edit your message' });
    expect(await box.inputValue()).toBe('Plan a trip to Porto');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('message-edit-input');
    await box.fill('Something else');
    await box.press('Escape');
    expect(await first.locator('.message-editor').count()).toBe(0);
    expect(await texts(questions(page))).toEqual(['Plan a trip to Porto', 'Three days']);

    // Save streams the new answer as a send does (Stop shown meanwhile).
    const gate = deferred();
    fake().enqueue({ kind: 'stream', chunks: ['Lisbon ', 'it is'], hold: gate.promise });
    await edit(page, first, 'Plan a trip to Lisbon');
    await waitText(replies(page).last(), 'Lisbon');
    await stopButton(page).waitFor();
    expect(await texts(questions(page))).toEqual(['Plan a trip to Lisbon']);
    gate.resolve();
    await waitText(replies(page).last(), 'Lisbon it is');
    await sendButton(page).waitFor();
    const edited = questions(page).first();
    await waitText(versions(edited), '2 / 2');
    expect(await versions(edited).getAttribute('aria-label')).toBe('Version 2 of 2');
    expect(await next(edited).isDisabled()).toBe(true);
    expect(await texts(replies(page))).toEqual(['Lisbon it is']);
    expect(sentToModel()).toEqual(['user: Plan a trip to Lisbon']); // nothing of the old branch

    // ‹ : the old branch, down to its newest message.
    await previous(edited).click();
    await waitText(versions(questions(page).first()), '1 / 2');
    expect(await texts(questions(page))).toEqual(['Plan a trip to Porto', 'Three days']);
    expect(await texts(replies(page))).toEqual(['reply to: Plan a trip to Porto', 'reply to: Three days']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Next version'); // ‹ is disabled now: the focus stays in the switch
    await waitText(page.locator('#announcer'), 'Version 1 of 2 shown.');

    // The next message continues the branch shown, and the model is sent that branch only.
    // While its reply streams, the switch and Edit are disabled.
    const held = deferred();
    fake().enqueue({ kind: 'stream', chunks: ['reply to: ', 'Where to eat?'], hold: held.promise });
    await send(page, 'Where to eat?');
    await waitText(replies(page).last(), 'reply to:');
    const switched = questions(page).first();
    expect(await next(switched).isDisabled()).toBe(true);
    expect(await switched.getByRole('button', { name: 'Edit your message' }).isDisabled()).toBe(true);
    held.resolve();
    await waitText(replies(page).last(), 'reply to: Where to eat?');
    await sendButton(page).waitFor();
    expect(await next(questions(page).first()).isEnabled()).toBe(true);
    expect(sentToModel()).toEqual([
      'user: Plan a trip to Porto',
      'assistant: reply to: Plan a trip to Porto',
      'user: Three days',
      'assistant: reply to: Three days',
      'user: Where to eat?',
    ]);
    // The same on the server, and after a reload.
    const stored = (await t.http().get(`/api/conversations/${id}`).expect(200)).body.messages.map(
      (m: { content: string }) => m.content,
    );
    expect(stored).toEqual([
      'Plan a trip to Porto',
      'reply to: Plan a trip to Porto',
      'Three days',
      'reply to: Three days',
      'Where to eat?',
      'reply to: Where to eat?',
    ]);
    await page.reload();
    await waitText(versions(questions(page).first()), '1 / 2');
    expect(await texts(questions(page))).toEqual(['Plan a trip to Porto', 'Three days', 'Where to eat?']);

    // › back to the edited branch.
    await next(questions(page).first()).click();
    await waitText(versions(questions(page).first()), '2 / 2');
    expect(await texts(replies(page))).toEqual(['Lisbon it is']);
  });

  it('regenerates a reply as a sibling: ‹ 2/2 › on it, ‹ shows the first answer again', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    await ask(page, 'Name a colour');
    fake().enqueue({ kind: 'reply', text: 'Blue, then.' });
    await page.getByRole('button', { name: 'Regenerate the last reply' }).click();
    await waitText(replies(page).last(), 'Blue, then.');
    const reply = replies(page).last();
    await waitText(versions(reply), '2 / 2');
    expect(await versions(questions(page).first()).count()).toBe(0); // the question has one version

    await previous(reply).click();
    await waitText(versions(replies(page).last()), '1 / 2');
    expect(await texts(replies(page))).toEqual(['reply to: Name a colour']);
    await ask(page, 'Why?');
    expect(sentToModel()).toEqual(['user: Name a colour', 'assistant: reply to: Name a colour', 'user: Why?']);
  });

  it('leaves the text in the editor when the edit is refused, and the path as it was', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    await ask(page, 'First question');
    const id = openId(page)!;
    await t.http().delete(`/api/conversations/${id}`).expect(204); // gone meanwhile: the edit is a 404
    await edit(page, questions(page).first(), 'Edited question');
    await page
      .getByRole('alert')
      .filter({ has: page.locator('#error-title') })
      .waitFor();
    expect(await texts(questions(page))).toEqual(['First question']);
    expect(await texts(replies(page))).toEqual(['reply to: First question']);
    expect(await questions(page).first().getByRole('textbox', { name: 'Edit your message' }).inputValue()).toBe(
      'Edited question',
    );
    expect(await composer(page).isEnabled()).toBe(true);
  });

  for (const viewport of [
    { name: 'desktop', width: 1100, height: 760, colorScheme: 'light' as const },
    { name: '390 px', width: 390, height: 844, colorScheme: 'light' as const },
    { name: '390 px in dark mode', width: 390, height: 844, colorScheme: 'dark' as const },
  ]) {
    it(`has no serious or critical axe-core violations at ${viewport.name}: the version switch and the editor`, async () => {
      const { base, t } = await startService();
      const first = (await t.http().post('/api/chat').send({ message: 'One question' }).expect(200)).body;
      const messages = (await t.http().get(`/api/conversations/${first.conversationId}`).expect(200)).body.messages;
      await t
        .http()
        .post(`/api/conversations/${first.conversationId}/messages/${messages[0].id}/edit`)
        .send({ message: 'Another question' })
        .expect(200);
      const page = await openPage(
        `${base}/#/c/${first.conversationId}`,
        { width: viewport.width, height: viewport.height },
        { colorScheme: viewport.colorScheme },
      );
      await waitText(versions(questions(page).first()), '2 / 2');
      const check = async (what: string) =>
        expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });
      await check('a question with two versions');
      await questions(page).first().getByRole('button', { name: 'Edit your message' }).click();
      await questions(page).first().getByRole('textbox', { name: 'Edit your message' }).waitFor();
      await check('the inline editor');
    });
  }
}
