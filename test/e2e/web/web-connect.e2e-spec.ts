import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { browserFixture, describeInChromium, seriousViolations } from '../../support/browser-page.js';
import { OAuthHost } from '../../support/oauth-host.js';
import { ALICE_KEY, auth as keyHeader, BOB_KEY } from '../../support/test-app.js';

// The consent page of the OAuth server behind /mcp (/connect.html), in headless Chromium.

declare const localStorage: { setItem(key: string, value: string): void };

const REDIRECT = 'http://127.0.0.1:33419/callback';

describeInChromium('web page: connecting an MCP host (consent page)', () => {
  const fixture = browserFixture();

  it('shows the host, allows it with the signed-in key, sends the browser back with the code, then lists and disconnects it', async () => {
    const { base, t } = await fixture.startService({ API_KEYS: `alice:${ALICE_KEY},bob:${BOB_KEY}` });
    const mcpUrl = new URL('/mcp', base);
    const provider = new OAuthHost(
      REDIRECT,
      { client_name: 'Browser Host <b>', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
      'browser-state',
    );
    expect(await auth(provider, { serverUrl: mcpUrl, scope: 'history:read history:write' })).toBe('REDIRECT');

    const page = await fixture.openPage(`${base}/connect.html`);
    await page.evaluate((key) => localStorage.setItem('chat-memory.apiKey', key), ALICE_KEY);
    let returned: URL | undefined;
    await page.route(`${REDIRECT}**`, async (route) => {
      returned = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the host' });
    });
    await page.goto(provider.authorizationUrl!.href);
    // The client's name is its own claim, shown as text.
    await page.getByRole('heading', { name: 'Browser Host <b> asks to use your conversation history' }).waitFor();
    expect(await page.locator('#redirect-origin').innerText()).toBe('http://127.0.0.1:33419');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Also allow it to change your history').check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${REDIRECT}**`);
    expect(returned!.searchParams.get('state')).toBe('browser-state');
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: returned!.searchParams.get('code')! })).toBe(
      'AUTHORIZED',
    );
    expect(provider.saved!.scope).toBe('history:read history:write');

    await page.goto(`${base}/connect.html`);
    const row = page.locator('#connections li', { hasText: 'Browser Host <b>' });
    await row.waitFor();
    expect(await row.innerText()).toContain('read and write');
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('#no-connections').waitFor();
    expect((await t.http().get('/oauth/connections').set(keyHeader(ALICE_KEY)).expect(200)).body.items).toEqual([]);
  });
});
