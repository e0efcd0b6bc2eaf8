import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Actor } from './actor.js';
import type { RequestWithActor } from './actor.guard.js';

/** The authenticated actor of an HTTP request (set by ActorGuard). */
export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const actor = context.switchToHttp().getRequest<RequestWithActor>().actor;
  // Reaching a handler without an actor means a route was wrongly made public: fail closed.
  if (!actor) throw new Error('CurrentActor used on a route without an authenticated actor');
  return actor;
});
