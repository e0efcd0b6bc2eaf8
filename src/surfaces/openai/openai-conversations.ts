import type { Conversation } from '../../conversations/conversation.entity.js';
import { conversationId } from './openai-ids.js';

/** Unix seconds, as OpenAI dates everything. */
export const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function toOpenAiConversation(c: Conversation) {
  return {
    id: conversationId(c.id),
    object: 'conversation' as const,
    created_at: unixSeconds(c.createdAt),
    metadata: c.metadata ?? {},
  };
}

/** OpenAI's list shape (`ConversationCursorPage`: the SDK asks for the next page with `after: last_id`). */
export function listOf<T extends { id: string }>(data: T[], hasMore: boolean) {
  return {
    object: 'list' as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}
