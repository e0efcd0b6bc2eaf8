import type { TurnEvents } from '../../chat/chat-request.js';
import type { ReplyOutcome, StartedTurn } from '../../chat/turn.js';
import type { ToolCallRecord } from '../../conversations/message.entity.js';

/** A surface's stream of one turn, once open: what it writes for each event, and how it ends. */
export interface TurnStreamWriter {
  delta(piece: string): void;
  reasoning?(piece: string): void;
  tool?(call: ToolCallRecord): void;
  /** The turn ended with its stored outcome (a model failure included). */
  finish(outcome: ReplyOutcome): void | Promise<void>;
  /** The turn threw after the stream opened: tell the client in the stream's own terms. */
  fail(error: unknown): void;
  end(): void;
}

/**
 * The one pipeline of a streamed turn, for every surface. The surface's stream opens with the
 * turn's first event (`started`, once the question and the empty reply are stored; a turn that
 * keeps nothing opens it with its first text, or its end). Anything thrown before it opens
 * propagates, so the client gets the surface's ordinary JSON error answer; every event after
 * goes to the open stream, and the stream ends however the turn ends.
 */
export async function pipeTurn(
  open: (turn?: StartedTurn) => TurnStreamWriter,
  run: (events: TurnEvents) => Promise<ReplyOutcome>,
): Promise<void> {
  let writer: TurnStreamWriter | undefined;
  const opened = (turn?: StartedTurn) => (writer ??= open(turn));
  try {
    const outcome = await run({
      started: (turn) => void opened(turn),
      delta: (piece) => opened().delta(piece),
      reasoning: (piece) => opened().reasoning?.(piece),
      tool: (call) => opened().tool?.(call),
    });
    await opened().finish(outcome);
  } catch (error) {
    if (!writer) throw error;
    writer.fail(error);
  } finally {
    writer?.end();
  }
}
