import type { Page } from 'playwright-core';
import {
  browserFixture,
  describeInChromium,
  errorBanner,
  replies,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';

// axe-core on the page's panels and their dialogs (the API key, agents, the agent editor with the
// API's messages, deleting an agent in use, threads, session state, context and usage, the
// account, memory, import), search results and the error banner, each as a user meets it, at
// desktop width and 390 px, light and dark. The chat, its menu and the conversation's dialogs
// are checked in web-tools.e2e-spec.ts, the version switch and the editor in web-branches.

declare const document: any;
declare const matchMedia: (query: string) => { matches: boolean };

const VIEWPORTS = [
  { name: 'desktop', width: 1100, height: 760, colorScheme: 'light' as const },
  { name: '390 px', width: 390, height: 844, colorScheme: 'light' as const },
  { name: 'desktop in dark mode', width: 1100, height: 760, colorScheme: 'dark' as const },
  { name: '390 px in dark mode', width: 390, height: 844, colorScheme: 'dark' as const },
];

describeInChromium('web page dialogs: axe-core in Chromium', dialogTests);

function dialogTests(): void {
  const fixture = browserFixture();

  for (const viewport of VIEWPORTS) {
    it(`has no serious or critical axe-core violations at ${viewport.name}: every panel and its dialogs`, async () => {
      const { base, t } = await fixture.startService({ API_KEYS: `alice:${ALICE_KEY}`, LLM_MAX_RETRIES: '0' });
      const as = auth(ALICE_KEY);
      const cook = (
        await t
          .http()
          .post('/api/agents')
          .set(as)
          .send({ name: 'Cook', emoji: '🍳', systemPrompt: 'You cook.' })
          .expect(201)
      ).body;
      const id = (
        await t.http().post('/api/chat').set(as).send({ message: 'Bake bread', agentId: cook.id }).expect(200)
      ).body.conversationId;
      await t.http().post('/api/memories').set(as).send({ text: 'Lives in Lyon' }).expect(201);
      const exported = (await t.http().get(`/api/conversations/${id}/export`).set(as).expect(200)).text;
      const page = await fixture.openPage(
        `${base}/#/c/${id}`,
        { width: viewport.width, height: viewport.height },
        { colorScheme: viewport.colorScheme },
      );
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(
        viewport.colorScheme === 'dark',
      );
      const check = async (what: string) =>
        expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });
      const narrow = viewport.width < 760;
      /** The buttons at the foot of the list are in the drawer at 390 px. */
      const sidebarButton = async (name: string) => {
        if (narrow) await page.getByRole('button', { name: 'Show conversations' }).click();
        await page.getByRole('button', { name, exact: true }).click();
      };
      const close = async (dialog: ReturnType<Page['getByRole']>) => {
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        // The last dialog closed over the drawer gives the focus back to it: Escape closes the drawer too.
        if (
          await page.evaluate(
            () => document.body.classList.contains('drawer-open') && !document.querySelector('dialog[open]'),
          )
        )
          await page.keyboard.press('Escape');
      };

      // The API key, refused once, then given.
      const key = page.getByRole('dialog', { name: 'API key' });
      await key.getByLabel('Key').fill('not-a-key-0000000000');
      await key.getByRole('button', { name: 'Continue' }).click();
      await waitText(key.locator('#key-error'), 'This key was refused.');
      await check('the API key dialog, with its error');
      await key.getByLabel('Key').fill(ALICE_KEY);
      await key.getByRole('button', { name: 'Continue' }).click();
      await waitText(replies(page), 'reply to: Bake bread');

      // Agents: the list, the editor with the API's messages, deleting one in use.
      await sidebarButton('Agents');
      const agents = page.getByRole('dialog', { name: 'Agents' });
      await waitText(agents.getByRole('list', { name: 'Your agents' }), 'Cook');
      await check('the agents list');
      await agents.getByRole('button', { name: 'New agent' }).click();
      const editor = page.getByRole('dialog', { name: 'New agent' });
      await editor.getByLabel('Temperature').fill('3');
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.locator('[aria-invalid="true"]').first().waitFor();
      await check('the agent editor, with the API validation messages');
      await close(editor);
      await agents.getByRole('button', { name: /^Delete .*Cook$/ }).click();
      const confirmDelete = page.getByRole('dialog', { name: /^Delete the agent “.*Cook”\?$/ });
      await confirmDelete.waitFor();
      await check('deleting an agent: the confirmation');
      await confirmDelete.getByRole('button', { name: 'Delete', exact: true }).click();
      const inUse = page.getByRole('dialog', { name: /^“.*Cook” has 1 conversation$/ });
      await inUse.waitFor();
      await check('deleting an agent in use: keep or delete its conversations');
      await inUse.getByRole('button', { name: 'Cancel' }).click();
      await close(agents);

      // Inside the conversation: a thread (refused name), the session state (refused JSON), the context.
      await page.getByRole('button', { name: 'New thread' }).click();
      const thread = page.getByRole('dialog', { name: 'New thread' });
      await thread.getByLabel('Name').fill('Not A Name');
      await thread.getByRole('button', { name: 'Start the thread' }).click();
      await waitText(thread.getByRole('alert'), 'a-z, 0-9');
      await check('the new thread dialog, with its error');
      await close(thread);
      await page.getByRole('button', { name: 'Session state' }).click();
      const stateDialog = page.getByRole('dialog', { name: 'Session state' });
      await stateDialog.getByLabel('State (JSON)').fill('[1, 2]');
      await stateDialog.getByRole('button', { name: 'Save' }).click();
      await waitText(stateDialog.getByRole('alert'), 'The server refused it');
      await check('the session state dialog, with the API error');
      await close(stateDialog);
      await page.getByRole('button', { name: 'Context and token usage' }).click();
      const context = page.getByRole('dialog', { name: 'Context and token usage' });
      await waitText(context, 'tokens used');
      await check('the context and token usage dialog');
      await close(context);

      // The account (usage tables, export, erase), memory, import (the report of a file).
      await sidebarButton('Account');
      const account = page.getByRole('dialog', { name: 'Account' });
      await account.getByRole('table', { name: 'Per model' }).waitFor();
      await account.getByLabel('Confirmation').fill('erase');
      await check('the account dialog');
      await close(account);
      await sidebarButton('Memory');
      const memory = page.getByRole('dialog', { name: 'Memory' });
      await waitText(memory.getByRole('list', { name: 'Memories' }), 'Lives in Lyon');
      await check('the memory panel');
      await close(memory);
      await sidebarButton('Import');
      const importDialog = page.getByRole('dialog', { name: 'Import conversations' });
      await importDialog
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'bread.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
      await waitText(importDialog.getByRole('status'), 'bread.json is a chat-memory export');
      await check('the import dialog, with its report');
      await close(importDialog);

      // Search results in the list, with the words found marked.
      if (narrow) await page.getByRole('button', { name: 'Show conversations' }).click();
      await page.getByRole('searchbox', { name: 'Search conversations' }).fill('bread');
      await page.locator('#conversation-list mark').first().waitFor();
      await check('search results in the list');
      await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
      if (narrow) await page.keyboard.press('Escape');

      // An error above the message box: the model is down.
      fixture.fake.enqueue({ kind: 'status', status: 500, message: 'model exploded' });
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Again');
      await page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
      await errorBanner(page).waitFor();
      await check('the error banner');
      expect(await page.evaluate(() => document.activeElement !== null)).toBe(true);
    }, 60_000);
  }
}
