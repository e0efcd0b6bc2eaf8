import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { TurnEvents } from '../../chat/chat-request.js';
import type { ReplyOutcome } from '../../chat/turn.js';
import { httpErrorOf } from '../errors/http-error.filter.js';
import type { StreamLimits } from '../streaming/event-stream.js';
import { UiMessageStream, type SettledCall } from './ui-message-stream.js';
import { pipeTurn } from '../streaming/turn-pipeline.js';
import { describeError } from '../../common/describe-error.js';

const logger = new Logger('UiStreamTurn');

/**
 * Runs a streaming turn as a UI message stream, opened once the question and the empty reply
 * are stored (so `start` names the stored reply). Anything thrown before that (validation,
 * ownership, busy) propagates: the client gets an ordinary JSON error answer. `messageId`: the UI
 * message the reply continues (tool outputs answered), instead of the stored reply's id;
 * `settled`: the calls of the agent's tools the client answered an approval for.
 */
export function streamUiTurn(
  res: Response,
  limits: StreamLimits,
  run: (events: TurnEvents) => Promise<ReplyOutcome>,
  messageId?: string,
  settled: readonly SettledCall[] = [],
): Promise<void> {
  return pipeTurn((turn) => {
    const ui = new UiMessageStream(res, limits);
    // A reply that goes on after tool outputs is the same UI message as the one that called them.
    ui.start(
      messageId ?? turn!.reply.id,
      { conversationId: turn!.conversation.id, thread: turn!.thread.name, model: turn!.model },
      turn!.reply.id,
    );
    ui.settle(settled);
    return {
      delta: (piece) => ui.delta(piece),
      tool: (call) => ui.tool(call),
      finish: (outcome) => ui.finish(outcome),
      fail: (error) => {
        const known = httpErrorOf(error);
        if (!known) logger.error(describeError(error));
        ui.fail(known?.message ?? 'Internal server error');
      },
      end: () => ui.end(),
    };
  }, run);
}
