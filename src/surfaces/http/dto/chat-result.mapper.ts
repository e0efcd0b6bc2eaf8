import type { ChatResult } from '../../../chat/chat.service.js';
import type { ChatResponseDto } from './chat.dto.js';

export function toChatResponse(result: ChatResult): ChatResponseDto {
  return {
    conversationId: result.conversationId,
    reply: result.reply,
    title: result.title,
    created: result.created,
    userMessageId: result.userMessageId,
    messageId: result.messageId,
    status: result.status,
    model: result.model,
    usage: result.usage,
  };
}
