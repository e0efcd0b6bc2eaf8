import type { UIMessage } from 'ai';
import type { Message, ToolCallRecord } from '../../conversations/message.entity.js';
import { replyErrorOf } from '../../conversations/message.entity.js';
import { UPDATE_STATE_TOOL } from '../../chat/tools/update-state.tool.js';
import type { UiMessageMetadata } from './ui-message-stream.js';

/** The session state as the last successful update_state call of a reply left it, or null if none ran. */
export function stateAfterTools(calls: readonly ToolCallRecord[] | null | undefined): Record<string, unknown> | null {
  let state: Record<string, unknown> | null = null;
  for (const call of calls ?? []) {
    if (call.name !== UPDATE_STATE_TOOL.name) continue;
    try {
      const result = JSON.parse(call.result) as { ok?: boolean; state?: Record<string, unknown> };
      if (result.ok && result.state) state = result.state;
    } catch {
      // A result is our own JSON; one that is not has nothing to show.
    }
  }
  return state;
}

/**
 * A stored message as the AI SDK's UIMessage, to seed `useChat({ messages })`: its text (state
 * `streaming` while the reply is generated, under the id its resumed stream's `start` names),
 * the state an update_state call left, and what we know of it as metadata.
 */
export function toUiMessage(message: Message, clientId?: string): UIMessage<UiMessageMetadata & { readonly createdAt: string }> {
  const parts: UIMessage['parts'] = [];
  if (message.content) parts.push({ type: 'text', text: message.content, state: message.status === 'streaming' ? 'streaming' : 'done' });
  const state = stateAfterTools(message.toolCalls);
  if (state) parts.push({ type: 'data-state', id: 'state', data: state });
  return {
    id: clientId ?? message.id,
    role: message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user',
    parts,
    metadata: {
      conversationId: message.conversationId,
      thread: message.thread,
      status: message.status,
      createdAt: message.createdAt.toISOString(),
      ...(message.role === 'assistant'
        ? {
            model: message.model,
            usage: message.promptTokens === null ? null : { promptTokens: message.promptTokens, completionTokens: message.completionTokens ?? 0 },
            error: replyErrorOf(message),
          }
        : {}),
    },
  };
}
