import type { ItemDraft } from '../conversations/conversation-items.service.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import type { NewMessage } from '../conversations/messages.repository.js';
import type { TurnRequest } from './turn.js';
import { timeOrderedId } from '../common/time-ordered-id.js';

/**
 * The messages a turn stores before its reply: its question, or its items (checked like a
 * question, function calls aside), each within MAX_MESSAGE_CHARS.
 */
export function turnInputs(request: TurnRequest, maxMessageChars: number): readonly ItemDraft[] {
  if (!request.items) {
    assertValidContent(request.content, maxMessageChars);
    return [{ role: 'user', content: request.content }];
  }
  if (request.items.length === 0) throw new InvalidInputError('input must not be empty');
  for (const item of request.items) {
    if (item.role === 'user' || item.role === 'system') assertValidContent(item.content, maxMessageChars);
    else assertValidContent(item.content || ' ', maxMessageChars);
  }
  return request.items;
}

/** Drafts of `items` in order, each following the one before (the first follows `parentId`). */
export function chained(items: readonly ItemDraft[], thread: string, parentId: string | null): NewMessage[] {
  return items.map((item) => {
    const id = timeOrderedId();
    const draft = {
      id,
      parentId,
      thread,
      role: item.role,
      content: item.content,
      functionCalls: item.functionCalls?.length ? item.functionCalls : null,
      callId: item.callId ?? null,
    };
    parentId = id;
    return draft;
  });
}

function assertValidContent(content: string, maxMessageChars: number): void {
  if (typeof content !== 'string' || content.trim() === '') {
    throw new InvalidInputError('message must not be empty');
  }
  if (content.includes('\u0000')) throw new InvalidInputError('message must not contain NUL characters');
  if (content.length > maxMessageChars) {
    throw new InvalidInputError(
      `message is ${content.length} characters long; the limit is ${maxMessageChars} (MAX_MESSAGE_CHARS)`,
    );
  }
}
