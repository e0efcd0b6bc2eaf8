import {
  browserFixture,
  describeInChromium,
  replies,
  send,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';
import { until } from '../../support/until.js';

// The memory panel and message pinning in headless Chromium, against the real server and the fake model.

describeInChromium('web page: the memory panel in Chromium', memoryTests);

function memoryTests(): void {
  const fixture = browserFixture();

  it('lists, searches, adds, edits, pins and deletes memories, with no serious accessibility violation', async () => {
    const { base, t } = await fixture.startService();
    await t.http().post('/api/memories').send({ text: 'Lives in Lyon' }).expect(201);
    const page = await fixture.openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();

    await page.getByRole('button', { name: 'Memory' }).click();
    const panel = page.getByRole('dialog', { name: 'Memory' });
    const list = panel.getByRole('list', { name: 'Memories' });
    await waitText(list, 'Lives in Lyon');
    expect(await seriousViolations(page)).toEqual([]);

    await panel.getByLabel('Remember').fill('Allergic to peanuts');
    await panel.getByLabel('Pinned').check();
    await panel.getByRole('button', { name: 'Add' }).click();
    await waitText(list, 'Allergic to peanuts');
    const memories = async () =>
      (await t.http().get('/api/memories').expect(200)).body.items as Array<{ text: string; pinned: boolean }>;
    expect(await memories()).toEqual([
      expect.objectContaining({ text: 'Allergic to peanuts', pinned: true }),
      expect.objectContaining({ text: 'Lives in Lyon', pinned: false }),
    ]);

    await panel.getByLabel('Search memories').fill('lyon');
    await panel.getByRole('button', { name: 'Search' }).click();
    await until(async () => (await list.locator('li').count()) === 1);
    await panel.getByRole('button', { name: 'Edit: Lives in Lyon' }).click();
    await panel.getByLabel('Memory text').fill('Lives in Paris');
    await panel.getByRole('button', { name: 'Save' }).click();
    await until(async () => (await memories()).some((m) => m.text === 'Lives in Paris'));
    await panel.getByLabel('Search memories').fill('');
    await panel.getByRole('button', { name: 'Search' }).click();
    await waitText(list, 'Lives in Paris');
    await panel.getByRole('button', { name: 'Pin: Lives in Paris' }).click();
    await until(async () => (await memories()).every((m) => m.pinned));
    await panel.getByRole('button', { name: 'Delete: Allergic to peanuts' }).click();
    await until(async () => (await memories()).length === 1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('pins a message from its footer: the server records it and the button says so', async () => {
    const { base, t } = await fixture.startService();
    const page = await fixture.openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await send(page, 'The wifi password is hunter2');
    await waitText(replies(page), 'reply to:');
    await page.getByRole('button', { name: 'Pin this message (always sent to the model)' }).first().click();
    await page.getByRole('button', { name: 'Unpin this message' }).first().waitFor();
    const [conversation] = (await t.http().get('/api/conversations').expect(200)).body.items;
    const messages = (await t.http().get(`/api/conversations/${conversation.id}/messages`).expect(200)).body.items;
    expect(messages.map((m: { pinned: boolean }) => m.pinned)).toEqual([true, false]);
  });
}
