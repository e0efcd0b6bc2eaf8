import type { ConversationLimits } from '../conversations/conversation-limits.js';
import type { ArchiveConversation } from './archives/archive.types.js';
import { MAX_REPLY_CHARS, MAX_SYSTEM_PROMPT_CHARS } from './export-document.js';

/** Why a conversation that the reader accepted does not fit this service's bounds, or null. */
export function outOfBounds(
  conversation: ArchiveConversation,
  limits: ConversationLimits,
  maxMessageChars: number,
): string | null {
  const tooMany = limits.messagesOverLimit(conversation.messages.length);
  if (tooMany) return tooMany;
  // The bounds of an export's import: a question as sent to /api/chat, a reply as the model may write one.
  for (const m of conversation.messages) {
    const max = m.role === 'user' ? maxMessageChars : MAX_REPLY_CHARS;
    if (m.content.length > max)
      return `message ${m.id} has ${m.content.length} characters; the limit is ${max}${m.role === 'user' ? ' (MAX_MESSAGE_CHARS)' : ' for a reply'}`;
  }
  if (conversation.systemPrompt !== null && conversation.systemPrompt.length > MAX_SYSTEM_PROMPT_CHARS) {
    return `the system prompt has ${conversation.systemPrompt.length} characters; the limit is ${MAX_SYSTEM_PROMPT_CHARS}`;
  }
  return null;
}
