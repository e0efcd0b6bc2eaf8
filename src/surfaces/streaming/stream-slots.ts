import {
  applyDecorators,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Response } from 'express';
import type { RequestWithActor } from '../../actor-auth/actor.guard.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { Metrics } from '../../metrics/metrics.js';
import { ApiErrors } from '../errors/api-errors.decorator.js';

/** A stream lasts as long as a reply; a client that waits this long has a fair chance of a free place. */
const RETRY_AFTER_SECONDS = 5;

/** Refused: the actor already has MAX_STREAMS_PER_ACTOR streams open. */
class TooManyStreamsError extends HttpException {
  constructor(limit: number) {
    super(
      `Too many open streams: at most MAX_STREAMS_PER_ACTOR (${limit}) at once per API key; close one or retry in ${RETRY_AFTER_SECONDS} s`,
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/**
 * Open server-sent event streams per actor (MAX_STREAMS_PER_ACTOR), so one caller cannot hold
 * an unbounded number of connections and their buffers. Counted in this process: with N
 * instances behind a balancer an actor may hold up to N times the limit.
 */
@Injectable()
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** Takes a place for `actorId` until `res` closes, whatever ends it (done, error, client gone, dropped). */
  take(actorId: string, res: Response): void {
    const limit = this.config.maxStreamsPerActor;
    // A client gone before its stream opened: its 'close' has been, and no stream will open.
    if (res.closed) return;
    const count = this.open.get(actorId) ?? 0;
    if (limit > 0 && count >= limit) {
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      throw new TooManyStreamsError(limit);
    }
    res.once('close', this.metrics.streamOpened());
    if (limit === 0) return;
    this.open.set(actorId, count + 1);
    res.once('close', () => {
      const left = (this.open.get(actorId) ?? 1) - 1;
      if (left > 0) this.open.set(actorId, left);
      else this.open.delete(actorId);
    });
  }
}

/** Runs after the actor (and the conversation's owner) is known, before the handler starts a turn. */
@Injectable()
class StreamSlotGuard implements CanActivate {
  constructor(private readonly slots: StreamSlots) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const actor = http.getRequest<RequestWithActor>().actor;
    if (actor) this.slots.take(actor.id, http.getResponse<Response>());
    return true;
  }
}

/** A route answering server-sent events: counted against MAX_STREAMS_PER_ACTOR (429 beyond). */
export function CountedStream() {
  return applyDecorators(UseGuards(StreamSlotGuard), ApiErrors([429]));
}
