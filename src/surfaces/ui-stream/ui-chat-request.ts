import { BadRequestException } from '@nestjs/common';
import type { ChatRequest } from '../../chat/chat.service.js';
import type { ItemDraft } from '../../conversations/conversation-items.service.js';
import type { FunctionCallRecord } from '../../conversations/message.entity.js';
import type { ToolSpec } from '../../llm/llm.port.js';
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
    options: optionsOf(body),
  };
}

/** The model options of a posted chat: the body's, with the tools the client declares. */
export function optionsOf(body: UiChatRequestDto): ChatRequest['options'] {
  const clientTools = clientToolsOf(body);
  return clientTools.length ? { ...body.options, clientTools } : body.options;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_CLIENT_TOOLS = 32;
const MAX_TOOL_DESCRIPTION_CHARS = 1024;

/** The tools the client declares (`tools`: by name, `{ description?, inputSchema }`), as the model is offered them. */
export function clientToolsOf(body: UiChatRequestDto): ToolSpec[] {
  if (body.tools === undefined) return [];
  const entries = Object.entries(body.tools);
  if (entries.length > MAX_CLIENT_TOOLS) throw new BadRequestException(`tools may declare at most ${MAX_CLIENT_TOOLS} tools`);
  return entries.map(([name, tool]) => {
    if (!TOOL_NAME.test(name)) throw new BadRequestException('a tool name must be 1-64 characters of A-Z, a-z, 0-9, "_" and "-"');
    const { description, inputSchema } = (isObject(tool) ? tool : {}) as { description?: unknown; inputSchema?: unknown };
    if (!isObject(inputSchema)) throw new BadRequestException(`tools.${name}.inputSchema must be a JSON Schema object`);
    if (description !== undefined && (typeof description !== 'string' || description.length > MAX_TOOL_DESCRIPTION_CHARS)) {
      throw new BadRequestException(`tools.${name}.description must be a string of at most ${MAX_TOOL_DESCRIPTION_CHARS} characters`);
    }
    return { name, description: description ?? '', parameters: inputSchema };
  });
}

/**
 * The outputs a posted assistant message carries for the client tools its stored reply called
 * (`pending`), one per call in the reply's order, as the messages stored before the reply goes on:
 * each call's tool part must be `output-available` (its output, as JSON) or `output-error`.
 */
export function toolOutputsOf(message: Record<string, unknown>, pending: readonly FunctionCallRecord[]): ItemDraft[] {
  const parts = Array.isArray(message.parts) ? (message.parts as unknown[]) : [];
  const byCall = new Map<string, Record<string, unknown>>();
  for (const part of parts) {
    if (!isObject(part) || typeof part.type !== 'string' || !part.type.startsWith('tool-') || typeof part.toolCallId !== 'string') continue;
    if (!pending.some((call) => call.callId === part.toolCallId)) {
      throw new BadRequestException(`tool call ${JSON.stringify(part.toolCallId).slice(0, 120)} is not one the chat's last reply made`);
    }
    byCall.set(part.toolCallId, part);
  }
  if (pending.length === 0) throw new BadRequestException("the last message must be a user message (role \"user\"), or the assistant message whose tool calls it answers");
  return pending.map((call) => {
    const part = byCall.get(call.callId);
    if (part?.state === 'output-available') return { role: 'tool', callId: call.callId, content: JSON.stringify(part.output ?? null) };
    if (part?.state === 'output-error') return { role: 'tool', callId: call.callId, content: JSON.stringify({ error: String(part.errorText ?? '') }) };
    throw new BadRequestException(`tool call ${call.callId} (${call.name}) has no output: its part must be in state output-available or output-error`);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
