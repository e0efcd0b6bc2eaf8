import { BadRequestException } from '@nestjs/common';
import type { ChatRequest } from '../../chat/chat.service.js';
import { ALIAS_PATTERN } from '../../conversations/conversation-alias.entity.js';
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

/**
 * The client's own id for the posted message (useChat makes one for every message), kept so that
 * it can name the message later; undefined when it sent none. Refused when it could not be kept.
 */
export function clientIdOf(body: UiChatRequestDto): string | undefined {
  const id = (body.message ?? body.messages?.at(-1))?.id;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !ALIAS_PATTERN.test(id)) throw new BadRequestException('a message id must be 1-128 characters of A-Z, a-z, 0-9, "_" and "-"');
  return id;
}

/** The turn a posted chat asks for, in the conversation found for its id or (none yet) one created under it. */
export function toTurnRequest(body: UiChatRequestDto, conversationId: string | null): ChatRequest {
  return {
    message: questionOf(body),
    clientMessageId: clientIdOf(body),
    ...(conversationId ? { conversationId } : { alias: body.id }),
    agentId: body.agentId,
    thread: body.thread,
    options: body.options,
  };
}
