import type { ItemDraft } from '../conversations/conversation-items.service.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import type { Message } from '../conversations/message.entity.js';

/** An input that breaks a round of function calls: an output of no pending call, or anything else while calls wait for outputs. */
export class BrokenFunctionRoundError extends InvalidInputError {}

/** How many outputs in a row are looked through to find the reply that asked for them (a reply asks for far fewer calls). */
const MAX_OUTPUTS_BEHIND = 128;

/**
 * The calls of the client's functions still waiting for an output after `last` (the message a
 * turn's input follows): those of the nearest reply above the outputs that end the path,
 * less the ones answered. `parentOf` reads one message of the conversation.
 */
export async function pendingCalls(
  last: Message | null,
  parentOf: (id: string) => Promise<Message | null>,
): Promise<string[]> {
  const answered = new Set<string>();
  let message = last;
  for (let seen = 0; message?.role === 'tool' && seen < MAX_OUTPUTS_BEHIND; seen++) {
    if (message.callId) answered.add(message.callId);
    message = message.parentId ? await parentOf(message.parentId) : null;
  }
  if (message?.role !== 'assistant' || !message.functionCalls?.length) return [];
  return message.functionCalls.map((c) => c.callId).filter((id) => !answered.has(id));
}

/**
 * Refuses input that breaks a round, as OpenAI does: every call pending (before the input, or
 * asked in it) is answered by an output before anything else, and an output answers a pending call.
 */
export function assertRoundsKept(pending: readonly string[], items: readonly ItemDraft[]): void {
  const open = new Set(pending);
  const unanswered = () => new BrokenFunctionRoundError(`No tool output found for function call ${[...open][0]}.`);
  for (const item of items) {
    if (item.role === 'tool') {
      if (!item.callId || !open.delete(item.callId))
        throw new BrokenFunctionRoundError(
          `No tool call found for function call output with call_id ${item.callId ?? ''}.`,
        );
      continue;
    }
    if (open.size) throw unanswered();
    for (const call of item.functionCalls ?? []) open.add(call.callId);
  }
  if (open.size) throw unanswered();
}
