import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  browserFixture,
  composer,
  describeInChromium,
  replies,
  send,
  sendButton,
  waitText,
} from '../../support/browser-page.js';

// The README's pictures of the page, desktop and phone (390 px), light and dark (the page follows
// prefers-color-scheme, emulated by Chromium), taken from a seeded service and the fake model.
// UPDATE_SCREENSHOTS=1 writes them to docs/img/; otherwise to a temporary folder, so the run
// still proves that they can be taken.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describeInChromium('web page: the README screenshots', screenshotTests);

const SHOTS = [
  { file: 'web-chat.png', width: 1200, height: 720, colorScheme: 'light' as const },
  { file: 'web-chat-dark.png', width: 1200, height: 720, colorScheme: 'dark' as const },
  { file: 'web-chat-mobile.png', width: 390, height: 760, colorScheme: 'light' as const },
  { file: 'web-chat-mobile-dark.png', width: 390, height: 760, colorScheme: 'dark' as const },
];

/** Kept small for the repository: a picture of the page, not a photograph. */
const MAX_BYTES = 150_000;

function screenshotTests(): void {
  const fixture = browserFixture();

  it('takes the README screenshots: desktop and 390 px, light and dark (UPDATE_SCREENSHOTS=1 writes docs/img/)', async () => {
    const { base, t } = await fixture.startService();
    await t.http().post('/api/agents').send({ name: 'Travel planner', systemPrompt: 'You plan trips.' }).expect(201);
    const helper = (
      await t.http().post('/api/agents').send({ name: 'Code helper', systemPrompt: 'You help with code.' }).expect(201)
    ).body;
    for (const message of ['Which pastries to try in Lisbon?', 'A recipe for sourdough bread']) {
      await t.http().post('/api/chat').send({ message }).expect(200);
    }
    const lisbon = (await t.http().get('/api/conversations').expect(200)).body.items.find((c: { title: string }) =>
      c.title.includes('Lisbon'),
    );
    await t
      .http()
      .patch(`/api/conversations/${lisbon.id}`)
      .send({ pinned: true, tags: ['travel'] })
      .expect(200);

    // The conversation of the pictures is written in the page, its reply streamed by the fake model.
    const first = await fixture.openPage(base, { width: SHOTS[0].width, height: SHOTS[0].height });
    await first.getByRole('combobox', { name: 'Agent', exact: true }).selectOption(helper.id);
    fixture.fake.enqueue({ kind: 'reply', text: SCREENSHOT_REPLY });
    await send(first, 'How do I read a file line by line in Node.js?');
    await waitText(replies(first), 'ends at the end of the file');
    await sendButton(first).waitFor();
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(first.url())![1];

    const dir =
      process.env.UPDATE_SCREENSHOTS === '1'
        ? join(ROOT, 'docs/img')
        : join(tmpdir(), `chat-memory-screenshots-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    for (const shot of SHOTS) {
      const page = await fixture.openPage(
        `${base}/#/c/${id}`,
        { width: shot.width, height: shot.height },
        { colorScheme: shot.colorScheme },
      );
      await waitText(replies(page), 'ends at the end of the file');
      await page.locator('.code-block .hljs-keyword').first().waitFor(); // highlighted
      await composer(page).fill('Thanks! And how do I skip empty lines?');
      await page.locator('#title').focus(); // no focus ring in the picture
      const path = join(dir, shot.file);
      await page.screenshot({ path });
      const bytes = statSync(path).size;
      expect({ file: shot.file, small: bytes > 1000 && bytes <= MAX_BYTES }).toEqual({ file: shot.file, small: true });
    }
    // Four full-page pictures: npm test may run another browser spec beside this one.
  }, 60_000);
}

const SCREENSHOT_REPLY = [
  'Use `readline` on a read stream: it reads the file lazily, so large files are fine.',
  '',
  '```js',
  "import { createReadStream } from 'node:fs';",
  "import { createInterface } from 'node:readline';",
  '',
  "const lines = createInterface({ input: createReadStream('notes.txt') });",
  'for await (const line of lines) {',
  '  console.log(line);',
  '}',
  '```',
  '',
  '- Each `line` comes without its line break.',
  '- The loop ends at the end of the file.',
].join('\n');
