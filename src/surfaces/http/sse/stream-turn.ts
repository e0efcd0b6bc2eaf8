import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { cutReason, type TurnEvents } from '../../../chat/chat-request.js';
import type { ReplyOutcome } from '../../../chat/turn.js';
import { httpErrorOf } from '../../errors/http-error.filter.js';
import { codeOfStatus } from '../../errors/error-codes.js';
import { failedStatus } from '../../errors/http-status.js';
import { EventStream, type StreamLimits } from '../../streaming/event-stream.js';
import { GrowingText } from '../../../common/growing-text.js';
import { describeError } from '../../../common/describe-error.js';
import { pipeTurn } from '../../streaming/turn-pipeline.js';

const logger = new Logger('StreamTurn');

/**
 * Runs a streaming turn as server-sent events: `conversation` once the question is stored,
 * `delta` for each piece of the reply, then `done` once the reply is stored, or `error`.
 * Anything thrown before the stream opens (validation, ownership, busy) propagates, so the
 * client gets an ordinary JSON error answer.
 */
export function streamTurn(
  res: Response,
  limits: StreamLimits,
  run: (events: TurnEvents) => Promise<ReplyOutcome>,
): Promise<void> {
  return pipeTurn((turn) => {
    const sse = new EventStream(res, limits);
    const messageId = turn!.reply.id;
    // Only for the `partial` of an error event: kept joined, not as one string node per delta.
    const text = new GrowingText();
    sse.send('conversation', {
      conversationId: turn!.conversation.id,
      userMessageId: turn!.question.id,
      messageId,
      title: turn!.conversation.title,
      created: turn!.created,
      agentId: turn!.conversation.agentId,
      thread: turn!.thread.name,
    });
    return {
      delta: (piece) => {
        text.append(piece);
        sse.delta(piece);
      },
      reasoning: (piece) => sse.send('reasoning', { text: piece }),
      finish: (outcome) => sendOutcome(sse, messageId, outcome),
      fail: (error) => {
        const known = httpErrorOf(error);
        if (!known) logger.error(describeError(error));
        const statusCode = known?.status ?? 500;
        const code = typeof known?.extra?.code === 'string' ? known.extra.code : codeOfStatus(statusCode);
        sse.send('error', {
          statusCode,
          code,
          message: known?.message ?? 'Internal server error',
          messageId,
          partial: text.toString(),
        });
      },
      end: () => sse.end(),
    };
  }, run);
}

/** The closing event of a reply: `done` for complete, truncated and cancelled, `error` for failed. */
export function sendOutcome(
  sse: EventStream,
  messageId: string,
  outcome: Pick<
    ReplyOutcome,
    'status' | 'content' | 'model' | 'usage' | 'error' | 'reasoning' | 'reasoningMs' | 'toolCalls'
  >,
): void {
  if (outcome.status === 'failed') {
    const code = outcome.error?.code ?? 'model_unavailable';
    sse.send('error', {
      statusCode: failedStatus(outcome.error),
      code,
      message: outcome.error?.message ?? 'The model failed',
      messageId,
      partial: outcome.content,
    });
    return;
  }
  // Reasoning and tool calls only when there were some: most replies have neither.
  const extras = {
    ...(outcome.reasoning ? { reasoning: outcome.reasoning, reasoningMs: outcome.reasoningMs ?? null } : {}),
    ...(outcome.toolCalls?.length ? { toolCalls: outcome.toolCalls } : {}),
  };
  sse.send('done', {
    messageId,
    reply: outcome.content,
    status: outcome.status,
    reason: cutReason(outcome),
    model: outcome.model,
    usage: outcome.usage,
    ...extras,
  });
}
