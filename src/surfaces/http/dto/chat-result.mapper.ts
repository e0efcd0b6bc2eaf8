import type { ChatRequest, ChatResult } from '../../../chat/chat-request.js';
import type { ChatRequestDto, ChatResponseDto } from './chat.dto.js';

export function toChatRequest(body: ChatRequestDto): ChatRequest {
  return {
    message: body.message,
    conversationId: body.conversationId,
    agentId: body.agentId,
    thread: body.thread,
    system: body.system,
    parentMessageId: body.parentMessageId,
    model: body.model,
    // `options: {}` is no option at all (it must not make an Idempotency-Key request look different).
    options:
      body.options && (body.options.temperature !== undefined || body.options.maxTokens !== undefined)
        ? { temperature: body.options.temperature, maxTokens: body.options.maxTokens }
        : undefined,
  };
}

export function toChatResponse(result: ChatResult): ChatResponseDto {
  return {
    conversationId: result.conversationId,
    reply: result.reply,
    title: result.title,
    created: result.created,
    agentId: result.agentId,
    thread: result.thread,
    userMessageId: result.userMessageId,
    messageId: result.messageId,
    status: result.status,
    reason: result.reason,
    model: result.model,
    usage: result.usage,
  };
}
