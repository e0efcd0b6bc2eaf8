import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  auth,
  exchangeAuthorization,
  refreshAuthorization,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { callTool } from '../../support/mcp-client.js';
import { OAuthHost } from '../../support/oauth-host.js';
import { ALICE_KEY, auth as keyHeader, BOB_KEY } from '../../support/test-app.js';

const REDIRECT = 'http://127.0.0.1:33418/callback';

/** The test host: registers for REDIRECT, with `state` as its state value. */
const hostProvider = (state = 'state-123') =>
  new OAuthHost(
    REDIRECT,
    {
      client_name: 'Test Host',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    state,
  );

describe('OAuth 2.1 for MCP hosts (the SDK client’s own OAuth flow)', () => {
  const fixture = useAppWithFakeModel();
  let base: string;
  let mcpUrl: URL;
  let metadata: AuthorizationServerMetadata;

  /** The consent page's part: follow the authorization URL to the page, then approve as `key`. */
  async function approve(authorizationUrl: URL, key: string, body: object = {}): Promise<URL> {
    const redirect = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const page = new URL(redirect.headers.get('location')!, base);
    expect(page.pathname).toBe('/connect.html');
    const request = page.searchParams.get('request')!;
    const shown = await fixture.app.http().get(`/oauth/requests/${request}`).set(keyHeader(key)).expect(200);
    expect(shown.body).toMatchObject({ clientName: 'Test Host', redirectUri: REDIRECT });
    const approved = await fixture.app
      .http()
      .post(`/oauth/requests/${request}/approve`)
      .set(keyHeader(key))
      .send(body)
      .expect(200);
    return new URL(approved.body.redirectTo);
  }

  /** Runs the whole flow for a new host as `key`: its tokens, and the code it exchanged. */
  async function connectHost(key: string, scope?: string): Promise<{ provider: OAuthHost; code: string }> {
    const provider = hostProvider();
    expect(await auth(provider, { serverUrl: mcpUrl, scope })).toBe('REDIRECT');
    const back = await approve(provider.authorizationUrl!, key, scope?.includes('write') ? { write: true } : {});
    expect(back.searchParams.get('state')).toBe('state-123');
    const code = back.searchParams.get('code')!;
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code })).toBe('AUTHORIZED');
    return { provider, code };
  }

  const mcpClient = async (provider: OAuthClientProvider) => {
    const client = new Client({ name: 'oauth-host', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    return client;
  };

  beforeAll(async () => {
    base = await fixture.app.url();
    mcpUrl = new URL('/mcp', base);
    await fixture.app
      .http()
      .post('/api/chat')
      .set(keyHeader(ALICE_KEY))
      .send({ message: 'alice plans the otter trip' })
      .expect(200);
    metadata = (await fixture.app.http().get('/.well-known/oauth-authorization-server').expect(200)).body;
  });

  it('answers a 401 on /mcp that points at its protected resource metadata, which names this server as authorization server', async () => {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const resource = (await fixture.app.http().get('/.well-known/oauth-protected-resource/mcp').expect(200)).body;
    expect(resource).toMatchObject({
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: ['history:read', 'history:write'],
    });
    expect(metadata).toMatchObject({
      issuer: base,
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
    });
  });

  it('connects a host with registration, consent and PKCE: its tools act as the user who approved, read-only unless write was granted', async () => {
    const { provider } = await connectHost(ALICE_KEY);
    expect(provider.saved).toMatchObject({ token_type: 'bearer', scope: 'history:read' });
    expect(provider.saved!.access_token).not.toContain(ALICE_KEY);
    const client = await mcpClient(provider);
    const recent = (await callTool(client, 'recent_conversations')).structuredContent as {
      conversations: Array<{ title: string }>;
    };
    expect(recent.conversations.map((c) => c.title)).toEqual([expect.stringContaining('otter')]);
    await client.close();
    const writer = await connectHost(BOB_KEY, 'history:read history:write');
    expect(writer.provider.saved!.scope).toBe('history:read history:write');
    const bob = await mcpClient(writer.provider);
    expect((await callTool(bob, 'recent_conversations')).structuredContent).toEqual({ conversations: [] });
    await bob.close();
  });

  it('keeps the access token to /mcp: on the REST API it is no key', async () => {
    const { provider } = await connectHost(ALICE_KEY);
    await fixture.app.http().get('/api/conversations').set(keyHeader(provider.saved!.access_token)).expect(401);
  });

  it('refuses a redirect URI the client did not register, even a loopback one on another port, without redirecting', async () => {
    const provider = hostProvider();
    await auth(provider, { serverUrl: mcpUrl });
    for (const other of ['http://127.0.0.1:9999/callback', 'https://attacker.example/callback']) {
      const url = new URL(provider.authorizationUrl!);
      url.searchParams.set('redirect_uri', other);
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('takes a code once, only with its verifier and redirect URI', async () => {
    const provider = hostProvider();
    await auth(provider, { serverUrl: mcpUrl });
    const code = (await approve(provider.authorizationUrl!, ALICE_KEY)).searchParams.get('code')!;
    const exchange = (codeVerifier: string, redirectUri = REDIRECT) =>
      exchangeAuthorization(base, {
        metadata,
        clientInformation: provider.client!,
        authorizationCode: code,
        codeVerifier,
        redirectUri,
      });
    await expect(exchange('a-wrong-verifier-0123456789012345678901234567890')).rejects.toThrow(
      /code_verifier does not match/,
    );
    await expect(exchange(provider.verifier, 'http://127.0.0.1:33418/other')).rejects.toThrow(/redirect_uri/);
    const tokens = await exchange(provider.verifier);
    expect(tokens.access_token).toMatch(/^cmo_at_/);
    await expect(exchange(provider.verifier)).rejects.toThrow(/unknown, expired or already used/);
  });

  it('refuses a code after its minute has passed', async () => {
    const provider = hostProvider();
    await auth(provider, { serverUrl: mcpUrl });
    const code = (await approve(provider.authorizationUrl!, ALICE_KEY)).searchParams.get('code')!;
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'setTimeout',
        'setInterval',
        'clearTimeout',
        'clearInterval',
        'clearImmediate',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
    });
    try {
      jest.setSystemTime(Date.now() + 61_000);
      await expect(
        exchangeAuthorization(base, {
          metadata,
          clientInformation: provider.client!,
          authorizationCode: code,
          codeVerifier: provider.verifier,
          redirectUri: REDIRECT,
        }),
      ).rejects.toThrow(/unknown, expired or already used/);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refreshes once per refresh token, and a revoked token stops working at once', async () => {
    const { provider } = await connectHost(ALICE_KEY);
    const first = provider.saved!;
    const next = await refreshAuthorization(base, {
      metadata,
      clientInformation: provider.client!,
      refreshToken: first.refresh_token!,
    });
    expect(next.access_token).not.toBe(first.access_token);
    await expect(
      refreshAuthorization(base, { metadata, clientInformation: provider.client!, refreshToken: first.refresh_token! }),
    ).rejects.toThrow(/refresh token/);
    provider.saveTokens(next);
    const client = await mcpClient(provider);
    expect((await callTool(client, 'recent_conversations')).isError).toBeFalsy();
    await client.close();
    const revoked = await fetch(new URL('/oauth/revoke', base), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: next.access_token, client_id: provider.client!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const raw = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        ...keyHeader(next.access_token),
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(raw.status).toBe(401);
  });

  it('lists the user’s connected clients and disconnects one; another user sees none of them', async () => {
    const { provider } = await connectHost(ALICE_KEY);
    const clientId = provider.client!.client_id;
    const listed = (await fixture.app.http().get('/oauth/connections').set(keyHeader(ALICE_KEY)).expect(200)).body
      .items as Array<{ clientId: string; clientName: string }>;
    expect(listed).toContainEqual(
      expect.objectContaining({ clientId, clientName: 'Test Host', scopes: ['history:read'] }),
    );
    const bobs = (await fixture.app.http().get('/oauth/connections').set(keyHeader(BOB_KEY)).expect(200)).body
      .items as Array<{ clientId: string }>;
    expect(bobs.map((c) => c.clientId)).not.toContain(clientId);
    await fixture.app.http().delete(`/oauth/connections/${clientId}`).set(keyHeader(BOB_KEY)).expect(404);
    await fixture.app.http().delete(`/oauth/connections/${clientId}`).set(keyHeader(ALICE_KEY)).expect(204);
    await expect(mcpClient(provider)).rejects.toThrow();
  });

  it('ends a user’s connections when the user erases the account', async () => {
    const { provider } = await connectHost(BOB_KEY);
    await (await mcpClient(provider)).close();
    await fixture.app.http().delete('/api/me/data').set(keyHeader(BOB_KEY)).expect(200);
    expect((await fixture.app.http().get('/oauth/connections').set(keyHeader(BOB_KEY)).expect(200)).body.items).toEqual(
      [],
    );
    await expect(mcpClient(provider)).rejects.toThrow();
  });

  it('needs the user’s own key to approve: without it the consent call is a 401, and a decided request cannot be approved again', async () => {
    const provider = hostProvider();
    await auth(provider, { serverUrl: mcpUrl });
    const redirect = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    const request = new URL(redirect.headers.get('location')!, base).searchParams.get('request')!;
    await fixture.app.http().post(`/oauth/requests/${request}/approve`).send({}).expect(401);
    const denied = await fixture.app
      .http()
      .post(`/oauth/requests/${request}/deny`)
      .set(keyHeader(ALICE_KEY))
      .expect(200);
    expect(new URL(denied.body.redirectTo).searchParams.get('error')).toBe('access_denied');
    await fixture.app.http().post(`/oauth/requests/${request}/approve`).set(keyHeader(ALICE_KEY)).send({}).expect(404);
  });
});
