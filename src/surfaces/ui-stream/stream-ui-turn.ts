import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { TurnEvents } from '../../chat/chat.service.js';
import type { ReplyOutcome } from '../../chat/turn.js';
import { httpErrorOf } from '../http/errors/http-error.filter.js';
import type { StreamLimits } from '../http/sse/event-stream.js';
import { UiMessageStream, type SettledCall } from './ui-message-stream.js';

const logger = new Logger('UiStreamTurn');

/**
 * Runs a streaming turn as a UI message stream, opened once the question and the empty reply
 * are stored (so `start` names the stored reply). Anything thrown before that (validation,
 * ownership, busy) propagates: the client gets an ordinary JSON error answer. `messageId`: the UI
 * message the reply continues (tool outputs answered), instead of the stored reply's id;
 * `settled`: the calls of the agent's tools the client answered an approval for.
 */
export async function streamUiTurn(
  res: Response,
  limits: StreamLimits,
  run: (events: TurnEvents) => Promise<ReplyOutcome>,
  messageId?: string,
  settled: readonly SettledCall[] = [],
): Promise<void> {
  let ui: UiMessageStream | undefined;
  try {
    const outcome = await run({
      started: (turn) => {
        ui = new UiMessageStream(res, limits);
        // A reply that goes on after tool outputs is the same UI message as the one that called them.
        ui.start(messageId ?? turn.reply.id, { conversationId: turn.conversation.id, thread: turn.thread.name, model: turn.model }, turn.reply.id);
        ui.settle(settled);
      },
      delta: (piece) => ui?.delta(piece),
      tool: (call) => ui?.tool(call),
    });
    ui!.finish(outcome);
  } catch (error) {
    if (!ui) throw error;
    const known = httpErrorOf(error);
    if (!known) logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    ui.fail(known?.message ?? 'Internal server error');
  } finally {
    ui?.end();
  }
}
