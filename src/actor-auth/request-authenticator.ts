import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Actor } from './actor.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { AuthFailureLimit } from './auth-failure-limit.js';
import { ACCESS_TOKEN_PREFIX, OAuthService, type TokenGrant } from '../oauth/oauth.service.js';

/** The answer to a request that needs an actor and has none (the body of the 401). */
export const UNAUTHENTICATED_MESSAGE = 'Missing or invalid API key: send "Authorization: Bearer <key>"';

/**
 * Who is calling, for one HTTP request: decided once from its Authorization header (an API key,
 * or on /mcp an OAuth access token; or single-user mode) and kept for the request, so the middleware that runs before the body is
 * read and ActorGuard share one answer. `undefined` is the one place where a request's
 * authentication fails, and where failures are counted per client address
 * (AUTH_FAILURES_PER_MINUTE): an address past the limit is refused (TooManyRequestsError)
 * before its key is looked at.
 */
@Injectable()
export class RequestAuthenticator {
  private readonly decided = new WeakMap<IncomingMessage, Promise<Actor | undefined>>();
  private readonly grants = new WeakMap<IncomingMessage, TokenGrant>();

  constructor(
    private readonly keys: ApiKeyAuthenticator,
    private readonly failures: AuthFailureLimit,
    private readonly oauth: OAuthService,
  ) {}

  actorOf(request: IncomingMessage): Promise<Actor | undefined> {
    let actor = this.decided.get(request);
    if (!actor) {
      // Express's req.ip is the socket's address unless TRUST_PROXY names the proxies in front.
      const address = (request as IncomingMessage & { ip?: string }).ip ?? request.socket.remoteAddress;
      actor = this.failures.authenticate(address, () => this.authenticate(request));
      this.decided.set(request, actor);
    }
    return actor;
  }

  /** The OAuth grant behind the request's actor, when it came with an access token rather than an API key. */
  grantOf(request: IncomingMessage): TokenGrant | undefined {
    return this.grants.get(request);
  }

  private async authenticate(request: IncomingMessage): Promise<Actor | undefined> {
    const token = bearerToken(request.headers.authorization);
    if (!token?.startsWith(ACCESS_TOKEN_PREFIX)) return this.keys.authenticate(token);
    // An access token's audience is the MCP endpoint alone: anywhere else it is no key at all.
    if (!isMcpRequest(request)) return undefined;
    const grant = await this.oauth.verify(token);
    if (grant) this.grants.set(request, grant);
    return grant?.actor;
  }
}

/** Whether the request is for `/mcp`, the one resource OAuth access tokens are for. */
function isMcpRequest(request: IncomingMessage): boolean {
  const path = (request.url ?? '').split('?')[0];
  return path === '/mcp' || path.startsWith('/mcp/');
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
