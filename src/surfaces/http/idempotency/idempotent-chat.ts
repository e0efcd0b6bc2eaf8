import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { ChatTurnFailedError, ReplyNotStoredError } from '../../../chat/chat.errors.js';
import { ChatService } from '../../../chat/chat.service.js';
import { cutReason, type ChatRequest } from '../../../chat/chat-request.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import type { StartedTurn } from '../../../chat/turn.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { replyErrorOf } from '../../../conversations/message.entity.js';
import { IdempotencyKeyInProgressError } from '../../../idempotency/idempotency.errors.js';
import { IdempotencyService, type Claim } from '../../../idempotency/idempotency.service.js';
import { toChatResponse } from '../dto/chat-result.mapper.js';
import { errorBody } from '../../errors/error-body.js';
import { httpErrorOf } from '../../errors/http-error.filter.js';
import { codeOfStatus } from '../../errors/error-codes.js';
import { failedStatus } from '../../errors/http-status.js';
import { EventStream } from '../../streaming/event-stream.js';
import { sendOutcome, streamTurn } from '../sse/stream-turn.js';
import { storedUsage } from '../../../conversations/stored-usage.js';

/** How long a retry waits for the first request with its key before answering 409. */
const WAIT_FOR_FIRST_MS = 30_000;
const POLL_MS = 100;

/** A stored answer, replayed as the same HTTP status and body. */
class StoredAnswer {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {}
}

/**
 * POST /api/chat and /api/chat/stream with an Idempotency-Key. The first request with a key
 * runs; its answer (a reply, or a model failure: the turn happened either way) is stored. A
 * request refused before its turn started (validation, ownership, 409) releases the key, so a
 * retry runs afresh.
 */
@Injectable()
export class IdempotentChat {
  constructor(
    private readonly keys: IdempotencyService,
    private readonly chat: ChatService,
    private readonly conversations: ConversationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(actor: Actor, key: string, request: ChatRequest): Promise<StoredAnswer> {
    const claim = await this.claimOrWait(actor, key, hashOf('chat', request), (c) => c.kind === 'running');
    if (claim.kind === 'done') return new StoredAnswer(claim.status, claim.body ?? {});
    if (claim.kind === 'running') throw new IdempotencyKeyInProgressError();
    try {
      const attach = (turn: StartedTurn) =>
        void this.keys
          .attach(actor, key, claim.token, { conversationId: turn.conversation.id, messageId: turn.reply.id })
          .catch(() => undefined);
      const body = { ...toChatResponse(await this.chat.run(actor, { ask: request }, { started: attach })) };
      await this.keys.complete(actor, key, claim.token, 200, body);
      return new StoredAnswer(200, body);
    } catch (error) {
      await this.settleFailure(actor, key, claim.token, error);
      throw error;
    }
  }

  async stream(actor: Actor, key: string, request: ChatRequest, res: Response): Promise<void> {
    // A running duplicate that has not yet named its reply is waited for; once named, it is followed.
    const claim = await this.claimOrWait(
      actor,
      key,
      hashOf('chatStream', request),
      (c) => c.kind === 'running' && !c.messageId,
    );
    if (claim.kind === 'done') return replayAsEvents(new EventStream(res, this.config), claim.status, claim.body ?? {});
    if (claim.kind === 'running') {
      if (!claim.messageId || !claim.conversationId) throw new IdempotencyKeyInProgressError();
      return this.followAsEvents(actor, res, claim.conversationId, claim.messageId);
    }
    let ids = { conversationId: '', userMessageId: '', messageId: '', title: '', created: false };
    try {
      await streamTurn(res, this.config, async (events) => {
        const outcome = await this.chat.run(
          actor,
          { ask: request },
          {
            events: {
              started: (turn) => {
                ids = {
                  conversationId: turn.conversation.id,
                  userMessageId: turn.question.id,
                  messageId: turn.reply.id,
                  title: turn.conversation.title,
                  created: turn.created,
                };
                void this.keys
                  .attach(actor, key, claim.token, { conversationId: ids.conversationId, messageId: ids.messageId })
                  .catch(() => undefined);
                events.started(turn);
              },
              delta: (text) => events.delta(text),
              reasoning: (text) => events.reasoning?.(text),
            },
          },
        );
        const stored =
          outcome.status === 'failed'
            ? errorBody(failedStatus(outcome.error), outcome.error?.message ?? 'The model failed', {
                code: 'chat_turn_failed',
                ...ids,
                partial: outcome.content,
              })
            : {
                ...ids,
                reply: outcome.content,
                status: outcome.status,
                reason: cutReason(outcome),
                model: outcome.model,
                usage: outcome.usage,
              };
        await this.keys.complete(
          actor,
          key,
          claim.token,
          outcome.status === 'failed' ? failedStatus(outcome.error) : 200,
          stored,
        );
        return outcome;
      });
    } catch (error) {
      await this.settleFailure(actor, key, claim.token, error);
      throw error;
    }
  }

  /** A turn that ran and failed is the stored answer; anything refused before a turn frees the key. */
  private async settleFailure(actor: Actor, key: string, token: string, error: unknown): Promise<void> {
    // The turn happened (its question is stored) whether the model or the database failed its reply: that is the answer.
    const known =
      error instanceof ChatTurnFailedError || error instanceof ReplyNotStoredError ? httpErrorOf(error) : null;
    if (known)
      await this.keys
        .complete(actor, key, token, known.status, errorBody(known.status, known.message, known.extra))
        .catch(() => undefined);
    else await this.keys.release(actor, key, token).catch(() => undefined);
  }

  private async claimOrWait(
    actor: Actor,
    key: string,
    hash: string,
    keepWaiting: (c: Claim) => boolean,
  ): Promise<Claim> {
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const claim = await this.keys.claim(actor, key, hash);
      if (!keepWaiting(claim) || Date.now() > deadline) return claim;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async followAsEvents(actor: Actor, res: Response, conversationId: string, messageId: string): Promise<void> {
    // Ownership and existence first, so a refusal is a JSON answer, not an event.
    await this.conversations.getMessage(actor, conversationId, messageId);
    const sse = new EventStream(res, this.config);
    try {
      sse.send('conversation', { conversationId, messageId, replayed: true });
      const message = await this.chat.follow(
        actor,
        conversationId,
        messageId,
        (text) => sse.delta(text),
        sse.clientGone,
      );
      if (message.status !== 'streaming') {
        const usage = storedUsage(message);
        sendOutcome(sse, messageId, {
          status: message.status,
          content: message.content,
          model: message.model,
          usage,
          error: replyErrorOf(message),
        });
      }
    } finally {
      sse.end();
    }
  }
}

function hashOf(route: string, request: ChatRequest): string {
  return (
    createHash('sha256')
      // The whole request: the same key with any other field changed is a different request.
      .update(JSON.stringify({ route, ...request }))
      .digest('hex')
  );
}

/** A finished streaming answer, sent again as events: the whole reply in one delta. */
function replayAsEvents(sse: EventStream, status: number, body: Record<string, unknown>): void {
  const { conversationId, userMessageId, messageId, title, created } = body;
  sse.send('conversation', { conversationId, userMessageId, messageId, title, created, replayed: true });
  if (status === 200) {
    if (typeof body.reply === 'string') sse.delta(body.reply);
    sse.send('done', {
      messageId,
      reply: body.reply,
      status: body.status,
      reason: body.reason ?? null,
      model: body.model,
      usage: body.usage,
    });
  } else {
    const code = typeof body.code === 'string' ? body.code : codeOfStatus(status);
    sse.send('error', { statusCode: status, code, message: body.message, messageId, partial: body.partial ?? '' });
  }
  sse.end();
}
