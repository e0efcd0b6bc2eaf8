import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Actor } from './actor.js';
import { IS_PUBLIC } from './public.decorator.js';
import { RequestAuthenticator, UNAUTHENTICATED_MESSAGE } from './request-authenticator.js';

export type RequestWithActor = Request & { actor?: Actor };

/**
 * Global guard: every HTTP route needs an actor unless it is marked @Public(). A request with
 * a body was already authenticated before it was read (authenticateBeforeBody); this reuses
 * that answer.
 */
@Injectable()
export class ActorGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const actor = await this.authenticator.actorOf(request);
    if (!actor) throw new UnauthorizedException(UNAUTHENTICATED_MESSAGE);
    request.actor = actor;
    return true;
  }
}
