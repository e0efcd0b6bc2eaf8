import { BadRequestException } from '@nestjs/common';
import type { ChatRequest } from '../../chat/chat-request.js';
import type { FunctionCallRecord } from '../../conversations/message.entity.js';
import type { ToolSpec } from '../../llm/llm.port.js';
import { FORGET_TOOL, REMEMBER_TOOL } from '../../chat/tools/memory.tools.js';
import { UPDATE_STATE_TOOL } from '../../chat/tools/update-state.tool.js';
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
      throw new BadRequestException(
        `only text parts are stored; the user message has a part of type ${JSON.stringify(type ?? null).slice(0, 40)}`,
      );
    }
    texts.push(text);
  }
  return texts.join('\n');
}

/**
 * The client's own id for the posted message (useChat makes one for every message), kept so that
 * it can name the message later; undefined when it sent none. Refused when it could not be kept.
 */
function clientIdOf(body: UiChatRequestDto): string | undefined {
  const id = (body.message ?? body.messages?.at(-1))?.id;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !ALIAS_PATTERN.test(id))
    throw new BadRequestException('a message id must be 1-128 characters of A-Z, a-z, 0-9, "_" and "-"');
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
  const approvalTools = approvalToolsOf(body);
  if (!clientTools.length && !approvalTools.length) return body.options;
  return {
    ...body.options,
    ...(clientTools.length ? { clientTools } : {}),
    ...(approvalTools.length ? { approvalTools } : {}),
  };
}

/** The error the model is told for a call the user denied. */
export const DENIED = 'the user denied this call';

/** What the model is told of a call the user denied. */
export function deniedOutput(reason: string | undefined): string {
  return JSON.stringify({ ok: false, error: DENIED, ...(reason ? { reason } : {}) });
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_CLIENT_TOOLS = 32;
const MAX_TOOL_DESCRIPTION_CHARS = 1024;

/** The agent's tools (they run on the server); the client may ask to approve their calls. */
export const AGENT_TOOLS: ReadonlySet<string> = new Set([UPDATE_STATE_TOOL.name, REMEMBER_TOOL.name, FORGET_TOOL.name]);

/** The id of the approval a call of an agent's tool waits for (one per call). */
export function approvalIdOf(callId: string): string {
  return `${callId}-approval`;
}

/** The agent's tools whose calls the client asks to approve: `tools: { update_state: { needsApproval: true } }`. */
function approvalToolsOf(body: UiChatRequestDto): string[] {
  return Object.entries(body.tools ?? {})
    .filter(([name, tool]) => AGENT_TOOLS.has(name) && isObject(tool) && tool.needsApproval === true)
    .map(([name]) => name);
}

/**
 * The tools the client declares (`tools`: by name, `{ description?, inputSchema }`), as the model is
 * offered them. An entry named after one of the agent's tools only says whether its calls need the
 * client's approval (`{ needsApproval: true }`).
 */
export function clientToolsOf(body: UiChatRequestDto): ToolSpec[] {
  if (body.tools === undefined) return [];
  const entries = Object.entries(body.tools);
  if (entries.length > MAX_CLIENT_TOOLS)
    throw new BadRequestException(`tools may declare at most ${MAX_CLIENT_TOOLS} tools`);
  return entries.flatMap(([name, tool]) => {
    if (!TOOL_NAME.test(name))
      throw new BadRequestException('a tool name must be 1-64 characters of A-Z, a-z, 0-9, "_" and "-"');
    if (AGENT_TOOLS.has(name)) {
      if (
        !isObject(tool) ||
        Object.keys(tool).some((key) => key !== 'needsApproval') ||
        typeof (tool.needsApproval ?? false) !== 'boolean'
      ) {
        throw new BadRequestException(
          `tools.${name} names a tool of the agent's: it takes only { needsApproval: boolean }`,
        );
      }
      return [];
    }
    const { description, inputSchema } = (isObject(tool) ? tool : {}) as {
      description?: unknown;
      inputSchema?: unknown;
    };
    if (!isObject(inputSchema)) throw new BadRequestException(`tools.${name}.inputSchema must be a JSON Schema object`);
    if (
      description !== undefined &&
      (typeof description !== 'string' || description.length > MAX_TOOL_DESCRIPTION_CHARS)
    ) {
      throw new BadRequestException(
        `tools.${name}.description must be a string of at most ${MAX_TOOL_DESCRIPTION_CHARS} characters`,
      );
    }
    return [{ name, description: description ?? '', parameters: inputSchema }];
  });
}

/** What the client answered to one call its chat's last reply ended waiting on. */
interface ToolAnswer {
  readonly call: FunctionCallRecord;
  /** The output of a tool the client ran, as JSON. */
  readonly output?: string;
  /** Its answer to a call of the agent's tool that needed its approval. */
  readonly approval?: { readonly approved: boolean; readonly reason?: string };
}

/**
 * The answers a posted assistant message carries to the calls its stored reply ended waiting on
 * (`pending`), one per call in the reply's order: a client tool's part must be `output-available`
 * (its output) or `output-error`; an agent's tool's part `approval-responded` (or `output-denied`).
 */
export function toolAnswersOf(message: Record<string, unknown>, pending: readonly FunctionCallRecord[]): ToolAnswer[] {
  const parts = Array.isArray(message.parts) ? (message.parts as unknown[]) : [];
  const byCall = new Map<string, Record<string, unknown>>();
  for (const part of parts) {
    if (
      !isObject(part) ||
      typeof part.type !== 'string' ||
      !part.type.startsWith('tool-') ||
      typeof part.toolCallId !== 'string'
    )
      continue;
    if (!pending.some((call) => call.callId === part.toolCallId)) {
      throw new BadRequestException(
        `tool call ${JSON.stringify(part.toolCallId).slice(0, 120)} is not one the chat's last reply made`,
      );
    }
    byCall.set(part.toolCallId, part);
  }
  if (pending.length === 0)
    throw new BadRequestException(
      'the last message must be a user message (role "user"), or the assistant message whose tool calls it answers',
    );
  return pending.map((call) => {
    const part = byCall.get(call.callId);
    if (AGENT_TOOLS.has(call.name)) {
      const approval = isObject(part?.approval) ? part.approval : {};
      if (
        (part?.state === 'approval-responded' || part?.state === 'output-denied') &&
        typeof approval.approved === 'boolean'
      ) {
        return {
          call,
          approval: {
            approved: approval.approved,
            ...(typeof approval.reason === 'string' ? { reason: approval.reason.slice(0, 1000) } : {}),
          },
        };
      }
      throw new BadRequestException(
        `tool call ${call.callId} (${call.name}) waits for approval: its part must be in state approval-responded`,
      );
    }
    if (part?.state === 'output-available') return { call, output: JSON.stringify(part.output ?? null) };
    if (part?.state === 'output-error')
      return { call, output: JSON.stringify({ error: String(part.errorText ?? '') }) };
    throw new BadRequestException(
      `tool call ${call.callId} (${call.name}) has no output: its part must be in state output-available or output-error`,
    );
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
