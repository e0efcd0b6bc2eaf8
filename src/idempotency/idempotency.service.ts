import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ReplyRowsRepository } from '../conversations/reply-rows.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { rowLock } from '../database/dialect.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyKeyReusedError } from './idempotency.errors.js';

/** How long a key is remembered. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type Claim =
  /** This request holds the key: run it, then complete() or release(). */
  | { readonly kind: 'claimed'; readonly token: string }
  /** An earlier request with this key finished: answer what it answered. */
  | { readonly kind: 'done'; readonly status: number; readonly body: Record<string, unknown> | null }
  /** An earlier request with this key is running (its turn, once started, is named). */
  | { readonly kind: 'running'; readonly conversationId: string | null; readonly messageId: string | null };

/**
 * Idempotency keys, kept in the database so a retry is recognised by any instance. Promises:
 * one request per (actor, key) runs at a time; a finished one is answered again for 24 hours
 * without running again; the same key with a different request is refused
 * (IdempotencyKeyReusedError); a claim whose instance died is taken over once its lease passes.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly db: DatabaseService,
    private readonly replyRows: ReplyRowsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  claim(actor: Actor, key: string, requestHash: string): Promise<Claim> {
    return this.db.transaction(async (em) => {
      const now = new Date();
      const token = randomUUID();
      const fresh = {
        actor: actor.id,
        key,
        requestHash,
        token,
        state: 'running' as const,
        leaseUntil: this.leaseFrom(now),
        createdAt: now,
      };
      // Insert-if-absent, then read under lock: concurrent claims on any instance agree on one winner.
      await em.createQueryBuilder().insert().into(IdempotencyKey).values(fresh).orIgnore().execute();
      const row = await this.lockRow(em, actor, key);
      if (row.token === token) return { kind: 'claimed', token };
      const expired = row.createdAt.getTime() + IDEMPOTENCY_TTL_MS < now.getTime();
      // A claim is abandoned once its lease passed, unless its reply is still being generated
      // (that reply renews a lease of its own; long streams and tool rounds outlast this one).
      const abandoned =
        row.state === 'running' && row.leaseUntil < now && !(await this.replyInProgress(em, row.messageId, now));
      if (expired || (abandoned && row.requestHash === requestHash)) {
        await em.update(
          IdempotencyKey,
          { actor: actor.id, key },
          { ...fresh, conversationId: null, messageId: null, responseStatus: null, responseBody: null },
        );
        return { kind: 'claimed', token };
      }
      if (row.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
      if (row.state === 'done') return { kind: 'done', status: row.responseStatus ?? 200, body: row.responseBody };
      return { kind: 'running', conversationId: row.conversationId, messageId: row.messageId };
    });
  }

  private async replyInProgress(em: EntityManager, messageId: string | null, now: Date): Promise<boolean> {
    if (!messageId) return false;
    const reply = await this.replyRows.replyLease(em, messageId);
    return reply?.status === 'streaming' && reply.leaseUntil !== null && reply.leaseUntil >= now;
  }

  /** Records which turn the claimed request started, so a duplicate can follow it. */
  async attach(
    actor: Actor,
    key: string,
    token: string,
    ids: { conversationId: string; messageId: string },
  ): Promise<void> {
    await this.db.transaction((em) => em.update(IdempotencyKey, { actor: actor.id, key, token }, ids));
  }

  /** Stores the answer of the claimed request; later duplicates get it. */
  async complete(
    actor: Actor,
    key: string,
    token: string,
    status: number,
    body: Record<string, unknown>,
  ): Promise<void> {
    const conversationId =
      typeof body.conversationId === 'string' && body.conversationId ? body.conversationId : undefined;
    await this.db.transaction((em) =>
      em.update(
        IdempotencyKey,
        { actor: actor.id, key, token },
        // The entity maps the body as JSON text; TypeORM's partial type cannot express a free-form object.
        {
          state: 'done',
          responseStatus: status,
          responseBody: body as never,
          ...(conversationId ? { conversationId } : {}),
        },
      ),
    );
  }

  /** Forgets a claim whose request did nothing (refused before any turn started), so a retry runs. */
  async release(actor: Actor, key: string, token: string): Promise<void> {
    await this.db.transaction((em) => em.delete(IdempotencyKey, { actor: actor.id, key, token }));
  }

  /** Deletes keys older than 24 hours. */
  purgeExpired(): Promise<number> {
    return this.db.transaction(async (em) => {
      const before = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
      const result = await em
        .createQueryBuilder()
        .delete()
        .from(IdempotencyKey)
        .where('created_at < :before', { before })
        .execute();
      return result.affected ?? 0;
    });
  }

  /** Gives every idempotency key of `from` (with its stored answer) to `to`, in the caller's unit of work. */
  async moveActorIn(em: EntityManager, from: Actor, to: Actor): Promise<number> {
    return (await em.update(IdempotencyKey, { actor: from.id }, { actor: to.id })).affected ?? 0;
  }

  /** Erases every key of the actor, within the caller's unit of work (erasing an account); returns how many. */
  async eraseFor(em: EntityManager, actor: Actor): Promise<number> {
    return (await em.delete(IdempotencyKey, { actor: actor.id })).affected ?? 0;
  }

  private lockRow(em: EntityManager, actor: Actor, key: string): Promise<IdempotencyKey> {
    return em.findOneOrFail(IdempotencyKey, { where: { actor: actor.id, key }, ...rowLock(em) });
  }

  /** A running claim must finish within a model call's worst case, with room to spare. */
  private leaseFrom(now: Date): Date {
    const worstCase = this.config.llm.provider === 'openai' ? this.config.llm.timeoutMs * 3 : 60_000;
    return new Date(now.getTime() + worstCase + this.config.replyLeaseMs);
  }
}
