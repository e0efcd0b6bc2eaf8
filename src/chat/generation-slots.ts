import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TooManyRequestsError } from '../rate-limits/too-many-requests.error.js';

/** A reply takes seconds: a client that waits this long has a fair chance of a free place. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Replies being generated in this process, per actor (MAX_GENERATIONS_PER_ACTOR) and in all
 * (MAX_GENERATIONS). A place is taken before the question is stored and given back when the
 * reply ends, not when the client leaves: a generation goes on after its client has gone, so
 * counting connections (MAX_STREAMS_PER_ACTOR) does not bound the model calls, their rows
 * and their memory. Per process, like the stream and rate limits.
 */
@Injectable()
export class GenerationSlots {
  private readonly byActor = new Map<string, number>();
  private total = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Takes a place for `actorId`; the returned function gives it back (once). Throws TooManyRequestsError when none is free. */
  take(actorId: string): () => void {
    const { maxGenerationsPerActor: perActor, maxGenerations: overall } = this.config;
    const count = this.byActor.get(actorId) ?? 0;
    if (perActor > 0 && count >= perActor) {
      throw new TooManyRequestsError(
        RETRY_AFTER_SECONDS,
        `MAX_GENERATIONS_PER_ACTOR (${perActor} replies being generated at once per API key)`,
      );
    }
    if (overall > 0 && this.total >= overall) {
      throw new TooManyRequestsError(
        RETRY_AFTER_SECONDS,
        `MAX_GENERATIONS (${overall} replies being generated at once)`,
      );
    }
    this.byActor.set(actorId, count + 1);
    this.total += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total -= 1;
      const left = (this.byActor.get(actorId) ?? 1) - 1;
      if (left > 0) this.byActor.set(actorId, left);
      else this.byActor.delete(actorId);
    };
  }
}
