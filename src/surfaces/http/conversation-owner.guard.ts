import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { RequestWithActor } from '../../actor-auth/actor.guard.js';
import { ConversationsService } from '../../conversations/conversations.service.js';

/**
 * Route-level ownership check for `/conversations/:id…`: a request for a conversation the
 * actor does not own stops here, before any handler runs. The domain service checks again
 * on every query; this guard is the outer of the two locks, not the only one.
 */
@Injectable()
export class ConversationOwnerGuard implements CanActivate {
  constructor(private readonly conversations: ConversationsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const id = request.params.id;
    // A malformed id is left to the validation pipe, which answers 400.
    if (!request.actor || typeof id !== 'string' || !isUUID(id)) return true;
    await this.conversations.assertOwned(request.actor, id);
    return true;
  }
}
