import type { ReplyOutcome } from '../../chat/turn.js';
import { replyErrorOf, type Message } from '../../conversations/message.entity.js';
import { storedUsage } from '../../conversations/stored-usage.js';

/** How a stored, finished reply ended, in the shape of a turn's outcome (what a follower reports at the end). */
export function storedOutcome(
  message: Message,
): Pick<ReplyOutcome, 'status' | 'content' | 'model' | 'usage' | 'error' | 'toolCalls' | 'reasoning' | 'reasoningMs'> {
  return {
    status: message.status === 'streaming' ? 'failed' : message.status,
    content: message.content,
    model: message.model,
    usage: storedUsage(message),
    error: replyErrorOf(message),
    toolCalls: message.toolCalls ?? undefined,
    reasoning: message.reasoning,
    reasoningMs: message.reasoningMs,
  };
}
