import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Actor } from './actor.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { AuthFailureLimit } from './auth-failure-limit.js';

/** The answer to a request that needs an actor and has none (the body of the 401). */
export const UNAUTHENTICATED_MESSAGE = 'Missing or invalid API key: send "Authorization: Bearer <key>"';

/**
 * Who is calling, for one HTTP request: decided once from its Authorization header (or
 * single-user mode) and kept for the request, so the middleware that runs before the body is
 * read and ActorGuard share one answer. `undefined` is the one place where a request's
 * authentication fails, and where failures are counted per client address
 * (AUTH_FAILURES_PER_MINUTE): an address past the limit is refused (TooManyRequestsError)
 * before its key is looked at.
 */
@Injectable()
export class RequestAuthenticator {
  private readonly decided = new WeakMap<IncomingMessage, Promise<Actor | undefined>>();

  constructor(
    private readonly keys: ApiKeyAuthenticator,
    private readonly failures: AuthFailureLimit,
  ) {}

  actorOf(request: IncomingMessage): Promise<Actor | undefined> {
    let actor = this.decided.get(request);
    if (!actor) {
      // Express's req.ip is the socket's address unless TRUST_PROXY names the proxies in front.
      const address = (request as IncomingMessage & { ip?: string }).ip ?? request.socket.remoteAddress;
      actor = this.failures.authenticate(address, () => this.keys.authenticate(bearerToken(request.headers.authorization)));
      this.decided.set(request, actor);
    }
    return actor;
  }
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
