import { Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentNotFoundError } from '../../agents/agent.errors.js';
import { ConversationNotFoundError, ForbiddenConversationError, InvalidInputError } from '../../conversations/conversation.errors.js';
import { StorageError, storageErrorOf } from '../../database/storage.errors.js';
import { TooManyRequestsError } from '../../rate-limits/too-many-requests.error.js';

const logger = new Logger('McpTools');

/** A tool's answer: the text a model reads, and the same data as `structuredContent` for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * The one map from domain errors to MCP tool errors (`isError: true`, a short message the model
 * can act on). Another actor's conversation answers exactly like a missing one. Anything
 * unexpected is logged and answered without its details.
 */
export function toolErrorOf(error: unknown): CallToolResult {
  const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
  if (error instanceof ConversationNotFoundError || error instanceof ForbiddenConversationError) {
    return fail(`Conversation ${error.conversationId} not found`);
  }
  if (error instanceof InvalidInputError) return fail(`Invalid arguments: ${error.message}`);
  if (error instanceof TooManyRequestsError) return fail(error.message);
  const storage = error instanceof StorageError ? error : storageErrorOf(error);
  if (storage) return fail(`${storage.message} (${storage.code}; retry in ${storage.retryAfterSeconds} s)`);
  if (error instanceof AgentNotFoundError) return fail(error.message);
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
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
