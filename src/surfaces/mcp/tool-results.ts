import { Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, type DomainErrorCode } from '../../common/domain-error.js';
import {
  type ConversationNotFoundError,
  type ForbiddenConversationError,
} from '../../conversations/conversation.errors.js';
import type { StorageError } from '../../common/storage.errors.js';
import { describeError } from '../../common/describe-error.js';

const logger = new Logger('McpTools');

/** A tool's answer: the text a model reads, and the same data as `structuredContent` for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

type ToolErrorText = (error: DomainError) => string;

const asItSays: ToolErrorText = (error) => error.message;
// Another actor's conversation answers exactly like a missing one.
const conversationNotFound: ToolErrorText = (error) =>
  `Conversation ${(error as ConversationNotFoundError | ForbiddenConversationError).conversationId} not found`;
const storage: ToolErrorText = (error) => {
  const { message, code, retryAfterSeconds } = error as StorageError;
  return `${message} (${code}; retry in ${retryAfterSeconds} s)`;
};

/**
 * The tool error text of every domain error code (`isError: true`, a short message the model
 * can act on). Exhaustive, so a new code fails the type check until it is mapped. `null`: the
 * (read-only) tools never meet it, so it is logged and answered without its details.
 */
const TOOL_ERROR_TEXTS = {
  conversation_not_found: conversationNotFound,
  conversation_forbidden: conversationNotFound,
  conversation_busy: null,
  conversation_state: null,
  message_not_found: null,
  invalid_input: (error) => `Invalid arguments: ${error.message}`,
  limit_reached: null,
  import_rejected: null,
  archive_format_unknown: null,
  archive_malformed: null,
  archive_too_large: null,
  archive_zip_invalid: null,
  archive_zip_unsupported: null,
  archive_zip_without_conversations: null,
  archive_unzipped_too_large: null,
  archive_too_many_conversations: null,
  context_over_budget: null,
  model_not_offered: null,
  agent_not_found: asItSays,
  agent_in_use: null,
  memory_not_found: null,
  share_not_found: null,
  idempotency_key_reused: null,
  idempotency_key_in_progress: null,
  too_many_requests: asItSays,
  chat_turn_failed: null,
  reply_not_stored: null,
  model_unavailable: null,
  model_timeout: null,
  model_cancelled: null,
  interrupted: null,
  reply_too_long: null,
  reply_timeout: null,
  storage_full: storage,
  storage_unavailable: storage,
  storage_busy: storage,
  telegram_inbox_full: null,
  telegram_update_too_large: null,
} as const satisfies Record<DomainErrorCode, ToolErrorText | null>;

/**
 * The one map from domain errors to MCP tool errors (TOOL_ERROR_TEXTS). Anything unexpected is
 * logged and answered without its details.
 */
export function toolErrorOf(error: unknown): CallToolResult {
  const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
  const known = error instanceof DomainError ? error : null;
  const text: ToolErrorText | null = known ? TOOL_ERROR_TEXTS[known.code] : null;
  if (known && text) return fail(text(known));
  logger.error(describeError(error));
  return fail('Internal error: the tool failed; nothing was changed');
}

/** Runs a tool's work, answering domain errors as tool errors rather than protocol failures. */
export async function asTool(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolErrorOf(error);
  }
}
