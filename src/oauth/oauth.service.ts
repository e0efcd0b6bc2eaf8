import type { EntityManager } from 'typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { hashApiKey } from '../common/api-key-hash.js';
import { OAuthClientsRepository } from './oauth-clients.repository.js';
import { OAuthGrantsRepository } from './oauth-grants.repository.js';
import { OAuthTokensRepository } from './oauth-tokens.repository.js';

/** Reading the caller's history through the MCP tools. */
const READ_SCOPE = 'history:read';
/** Changing it (tools that write); granted only when the user ticks it on the consent page. */
const WRITE_SCOPE = 'history:write';
export const SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;

/** The prefix of every access token: a bearer token with it is looked up here, never as an API key. */
export const ACCESS_TOKEN_PREFIX = 'cmo_at_';
const REFRESH_TOKEN_PREFIX = 'cmo_rt_';

/** How long the user has to decide on the consent page. */
const REQUEST_TTL_MS = 10 * 60_000;
/** A code is exchanged right after the redirect; a minute is plenty and little to steal. */
const CODE_TTL_MS = 60_000;
const ACCESS_TTL_MS = 60 * 60_000;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;

/** Why a token or authorization request is refused, in OAuth's error codes (RFC 6749 section 5.2). */
export class OAuthRefusal extends Error {
  constructor(
    readonly oauthCode: 'invalid_grant' | 'invalid_scope' | 'invalid_request',
    message: string,
  ) {
    super(message);
  }
}

interface RegisteredClient {
  readonly client_id: string;
  readonly client_id_issued_at: number;
  readonly redirect_uris: string[];
  readonly client_name?: string;
  readonly [field: string]: unknown;
}

interface IssuedTokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly token_type: 'bearer';
  readonly expires_in: number;
  readonly scope: string;
}

/** What an access token stands for. */
export interface TokenGrant {
  readonly actor: Actor;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: Date;
}

interface PendingRequest {
  readonly id: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
}

export interface Connection {
  readonly clientId: string;
  readonly clientName: string;
  readonly scopes: readonly string[];
  readonly connectedAt: Date;
}

const hash = (secret: string) => hashApiKey(secret).toString('hex');
const secret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/**
 * The OAuth 2.1 authorization server of the MCP endpoint: registered clients, authorization
 * requests approved by their user, and tokens bound to that user (the actor) and scoped to the
 * history tools. Promises: codes, access and refresh tokens are random, stored only as SHA-256,
 * single-use where the protocol says so (codes, refresh tokens) and short-lived; a revoked token
 * fails at once on every instance; one actor never sees or revokes another's connections.
 */
@Injectable()
export class OAuthService {
  constructor(
    private readonly clients: OAuthClientsRepository,
    private readonly grants: OAuthGrantsRepository,
    private readonly tokens: OAuthTokensRepository,
  ) {}

  async registerClient(metadata: Record<string, unknown> & { redirect_uris: string[] }): Promise<RegisteredClient> {
    const now = new Date();
    // Public clients only: PKCE proves the client, and no secret needs keeping.
    const { client_secret: _secret, client_secret_expires_at: _expires, ...rest } = metadata;
    const client: RegisteredClient = {
      ...rest,
      token_endpoint_auth_method: 'none',
      client_id: randomUUID(),
      client_id_issued_at: Math.floor(now.getTime() / 1000),
    };
    await this.clients.insert({ id: client.client_id, metadata: JSON.stringify(client), createdAt: now });
    return client;
  }

  async client(id: string): Promise<RegisteredClient | undefined> {
    const row = await this.clients.find(id);
    return row ? (JSON.parse(row.metadata) as RegisteredClient) : undefined;
  }

  /** Records an authorization request (already checked against its client) and returns its id for the consent page. */
  async startAuthorization(request: {
    clientId: string;
    redirectUri: string;
    codeChallenge: string;
    scopes: readonly string[];
    state?: string;
    resource?: string;
  }): Promise<string> {
    const scopes = request.scopes.length ? [...new Set(request.scopes)] : [READ_SCOPE];
    const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length)
      throw new OAuthRefusal(
        'invalid_scope',
        `Unknown scope ${unknown[0].slice(0, 50)}; this server grants ${SCOPES.join(' and ')}`,
      );
    const now = new Date();
    const id = randomUUID();
    await this.grants.insert(
      {
        id,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        scopes: scopes.join(' '),
        state: request.state ?? null,
        resource: request.resource ?? null,
        actor: null,
        codeHash: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
        usedAt: null,
      },
      now,
    );
    return id;
  }

  /** A request waiting for a decision, as the consent page shows it; undefined when unknown, decided or expired. */
  async pending(id: string): Promise<PendingRequest | undefined> {
    const grant = await this.grants.findPending(id, new Date());
    if (!grant) return undefined;
    const client = await this.client(grant.clientId);
    return {
      id,
      clientName: client?.client_name ?? 'An MCP client',
      redirectUri: grant.redirectUri,
      scopes: grant.scopes.split(' '),
    };
  }

  /**
   * The actor approves a pending request: a code is made for it, with the write scope only if
   * the actor allows it. Returns where to send the browser (the client's redirect URI with the
   * code and state), or undefined when the request is no longer pending.
   */
  async approve(actor: Actor, id: string, allowWrite: boolean): Promise<string | undefined> {
    const now = new Date();
    const grant = await this.grants.findPending(id, now);
    if (!grant) return undefined;
    const scopes = grant.scopes.split(' ').filter((s) => s === READ_SCOPE || (s === WRITE_SCOPE && allowWrite));
    // Reading is what every grant is for, asked or not.
    if (!scopes.includes(READ_SCOPE)) scopes.unshift(READ_SCOPE);
    const code = secret('cmo_code_');
    if (
      !(await this.grants.approve(
        id,
        actor.id,
        hash(code),
        scopes.join(' '),
        new Date(now.getTime() + CODE_TTL_MS),
        now,
      ))
    )
      return undefined;
    return redirectWith(grant.redirectUri, { code, state: grant.state });
  }

  /** The actor denies a pending request: where to send the browser (the redirect URI with `access_denied`), or undefined. */
  async deny(id: string): Promise<string | undefined> {
    const now = new Date();
    const grant = await this.grants.findPending(id, now);
    if (!grant || !(await this.grants.deny(id, now))) return undefined;
    return redirectWith(grant.redirectUri, {
      error: 'access_denied',
      error_description: 'The user declined the request',
      state: grant.state,
    });
  }

  /** The PKCE challenge of a live code of this client (the caller checks the verifier against it). */
  async challengeFor(clientId: string, code: string): Promise<string> {
    const grant = await this.grants.findCode(clientId, hash(code), new Date());
    if (!grant) throw new OAuthRefusal('invalid_grant', 'The authorization code is unknown, expired or already used');
    return grant.codeChallenge;
  }

  /** Exchanges a code (once) for tokens; the redirect URI must be the one of the request, exactly. */
  async exchangeCode(clientId: string, code: string, redirectUri: string | undefined): Promise<IssuedTokens> {
    const now = new Date();
    const grant = await this.grants.findCode(clientId, hash(code), now);
    if (!grant || !grant.actor)
      throw new OAuthRefusal('invalid_grant', 'The authorization code is unknown, expired or already used');
    if (redirectUri !== undefined && redirectUri !== grant.redirectUri)
      throw new OAuthRefusal('invalid_grant', 'redirect_uri differs from the one of the authorization request');
    if (!(await this.grants.spend(grant.id, now)))
      throw new OAuthRefusal('invalid_grant', 'The authorization code is unknown, expired or already used');
    return this.issue(grant.actor, clientId, grant.scopes, now);
  }

  /** A new pair for a refresh token (which stops working); scopes may only narrow. */
  async refresh(clientId: string, refreshToken: string, scopes: readonly string[] | undefined): Promise<IssuedTokens> {
    const now = new Date();
    const row = await this.tokens.byRefresh(clientId, hash(refreshToken), now);
    if (!row) throw new OAuthRefusal('invalid_grant', 'The refresh token is unknown, expired or revoked');
    const granted = row.scopes.split(' ');
    if (scopes?.some((s) => !granted.includes(s)))
      throw new OAuthRefusal('invalid_scope', 'A refresh cannot add scopes the user did not grant');
    const access = secret(ACCESS_TOKEN_PREFIX);
    const refresh = secret(REFRESH_TOKEN_PREFIX);
    const next = {
      accessHash: hash(access),
      refreshHash: hash(refresh),
      accessExpiresAt: new Date(now.getTime() + ACCESS_TTL_MS),
      refreshExpiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
    };
    if (!(await this.tokens.rotate(row.id, row.refreshHash, next)))
      throw new OAuthRefusal('invalid_grant', 'The refresh token is unknown, expired or revoked');
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: ACCESS_TTL_MS / 1000,
      scope: row.scopes,
    };
  }

  /** What a live access token stands for, or undefined (unknown, expired or revoked). */
  async verify(accessToken: string): Promise<TokenGrant | undefined> {
    if (!accessToken.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
    const row = await this.tokens.byAccess(hash(accessToken), new Date());
    return row
      ? {
          actor: { id: row.actor },
          clientId: row.clientId,
          scopes: row.scopes.split(' '),
          expiresAt: row.accessExpiresAt,
        }
      : undefined;
  }

  /** RFC 7009: revokes the client's token (access or refresh); an unknown one is no error. */
  async revoke(clientId: string, token: string): Promise<void> {
    await this.tokens.revokeByHash(clientId, hash(token), new Date());
  }

  /** The clients the actor has connected (live tokens), newest first, one entry per client. */
  async connections(actor: Actor): Promise<Connection[]> {
    const rows = await this.tokens.liveFor(actor.id, new Date());
    const newest = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (!newest.has(row.clientId)) newest.set(row.clientId, row);
    const clients = new Map(
      (await this.clients.findMany([...newest.keys()])).map((c) => [c.id, JSON.parse(c.metadata) as RegisteredClient]),
    );
    return [...newest.values()].map((row) => ({
      clientId: row.clientId,
      clientName: clients.get(row.clientId)?.client_name ?? 'An MCP client',
      scopes: row.scopes.split(' '),
      connectedAt: row.createdAt,
    }));
  }

  /** Disconnects a client: every token it holds for the actor stops working. False when it had none. */
  async disconnect(actor: Actor, clientId: string): Promise<boolean> {
    return (await this.tokens.revokeClientFor(actor.id, clientId, new Date())) > 0;
  }

  /** The MCP hosts connected by `from` keep working as `to`, in the caller's transaction (the single-user history adopted by a key). */
  moveActorIn(em: EntityManager, from: Actor, to: Actor): Promise<number> {
    return this.tokens.moveActorIn(em, from.id, to.id);
  }

  /** Account erasure: every token of the actor, live or not. */
  eraseFor(actor: Actor): Promise<void> {
    return this.tokens.deleteFor(actor.id);
  }

  private async issue(actor: string, clientId: string, scopes: string, now: Date): Promise<IssuedTokens> {
    const access = secret(ACCESS_TOKEN_PREFIX);
    const refresh = secret(REFRESH_TOKEN_PREFIX);
    await this.tokens.insert({
      id: randomUUID(),
      actor,
      clientId,
      accessHash: hash(access),
      refreshHash: hash(refresh),
      scopes,
      accessExpiresAt: new Date(now.getTime() + ACCESS_TTL_MS),
      refreshExpiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
      createdAt: now,
      revokedAt: null,
    });
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: ACCESS_TTL_MS / 1000,
      scope: scopes,
    };
  }
}

function redirectWith(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.href;
}
