import { BadRequestException } from '@nestjs/common';
import type { ChatRequest } from '../../chat/chat.service.js';
import type { UiChatRequestDto } from './ui-chat.dto.js';

/**
 * The question of a posted chat: the text of the last message (`message`, or the last of
 * `messages`), which must be the user's. The rest of `messages` is the client's copy of what is
 * stored; it is not read. Parts other than text (files) are refused rather than dropped.
 */
export function questionOf(body: UiChatRequestDto): string {
  const last = body.message ?? body.messages?.at(-1);
  if (!last) throw new BadRequestException('messages (or message) must hold the new user message');
  if (last.role !== 'user') throw new BadRequestException('the last message must be a user message (role "user")');
  const parts = last.parts;
  if (!Array.isArray(parts)) throw new BadRequestException('the user message must have parts');
  const texts: string[] = [];
  for (const part of parts as unknown[]) {
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
    if (type !== 'text' || typeof text !== 'string') {
      throw new BadRequestException(`only text parts are stored; the user message has a part of type ${JSON.stringify(type ?? null).slice(0, 40)}`);
    }
    texts.push(text);
  }
  return texts.join('\n');
}

/** The turn a posted chat asks for, in the conversation found for its id or (none yet) one created under it. */
export function toTurnRequest(body: UiChatRequestDto, conversationId: string | null): ChatRequest {
  return {
    message: questionOf(body),
    ...(conversationId ? { conversationId } : { alias: body.id }),
    agentId: body.agentId,
    thread: body.thread,
    options: body.options,
  };
}
