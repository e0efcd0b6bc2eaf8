import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, concatMap, finalize, from, throwError, type Observable } from 'rxjs';
import type { RequestWithActor } from '../../actor-auth/actor.guard.js';
import { ReadReplicas } from '../../database/read-replicas.js';

/** Methods that never write: their reads may go to a replica. */
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With read replicas (DATABASE_READ_URL): any other request of an actor is taken to write, so
 * while it runs, and until the replicas hold what it wrote, that actor's reads go to the
 * primary (ReadReplicas.writeBegan). The answer is sent only once the other instances were
 * told, so the caller's next request reads its own write wherever it lands. A streamed answer
 * is over when its connection closes.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly replicas: ReadReplicas) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.replicas.enabled || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    if (!request.actor || READ_ONLY.has(request.method)) return next.handle();
    const ended = this.replicas.writeBegan(request.actor.id);
    context
      .switchToHttp()
      .getResponse<Response>()
      .once('close', () => void ended());
    return next.handle().pipe(
      concatMap((value) => from(ended().then(() => value))),
      catchError((error: unknown) => from(ended()).pipe(concatMap(() => throwError(() => error)))),
      finalize(() => void ended()),
    );
  }
}
