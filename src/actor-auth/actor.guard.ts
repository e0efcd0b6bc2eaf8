import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Actor } from './actor.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { AuthFailureLimit } from './auth-failure-limit.js';
import { IS_PUBLIC } from './public.decorator.js';

export type RequestWithActor = Request & { actor?: Actor };

/** Global guard: every HTTP route needs an actor unless it is marked @Public(). */
@Injectable()
export class ActorGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly failures: AuthFailureLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    // req.ip is the socket's address unless TRUST_PROXY names the proxies in front.
    const actor = await this.failures.authenticate(request.ip, () => this.authenticator.authenticate(bearerToken(request.headers.authorization)));
    if (!actor) {
      throw new UnauthorizedException('Missing or invalid API key: send "Authorization: Bearer <key>"');
    }
    request.actor = actor;
    return true;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
