import type { UIMessage } from 'ai';
import type { Message, ToolCallRecord } from '../../conversations/message.entity.js';
import { replyErrorOf } from '../../conversations/message.entity.js';
import { UPDATE_STATE_TOOL } from '../../chat/tools/update-state.tool.js';
import type { UiMessageMetadata } from './ui-message-stream.js';
import { AGENT_TOOLS, approvalIdOf, DENIED } from './ui-chat-request.js';
import { storedUsage } from '../../conversations/stored-usage.js';

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

/** A tool's arguments or result as a UI tool part holds them: the JSON they are, else the text. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The id of the `index`-th tool of ours a reply ran, the same live and stored (the model's own ids are not kept). */
export function toolCallIdOf(replyId: string, index: number): string {
  return `${replyId}-tool-${index}`;
}

type StoredUiMessage = UIMessage<UiMessageMetadata & { readonly createdAt: string }>;
/** A tool call's part, `tool-<name>` (the replies never carry `dynamic-tool` parts). */
type ToolPart = Extract<UIMessage['parts'][number], { type: `tool-${string}` }>;

/**
 * Whether `part` is a tool call's: the AI SDK's `isStaticToolUIPart`, written here because `ai`
 * is a development dependency (the tests' client), so only its types are imported.
 */
export function isToolPart(part: UIMessage['parts'][number]): part is ToolPart {
  return part.type.startsWith('tool-');
}

/**
 * Stored messages (a stretch of the active path, oldest first) as UIMessages. A reply that
 * called the client's tools, their outputs and the reply that went on after them are one
 * UIMessage, under the first reply's id, as useChat holds it; `names`: the client's own ids of
 * the messages it sent.
 */
export function toUiMessages(messages: readonly Message[], names: ReadonlyMap<string, string>): StoredUiMessage[] {
  const out: StoredUiMessage[] = [];
  // The client tool calls of the UI message being built, by call id, while its round goes on.
  let calls: Map<string, ToolPart> | null = null;
  let previous: Message | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const part = calls?.get(message.callId ?? '');
      if (part) Object.assign(part, answeredPart(part, message.content));
    } else if (message.role === 'assistant' && calls && previous?.role === 'tool') {
      const round = out[out.length - 1];
      const next = toUiMessage(message);
      round.parts.push({ type: 'step-start' }, ...next.parts);
      round.metadata = { ...next.metadata!, createdAt: round.metadata!.createdAt };
      calls = callsOf(round, message);
    } else {
      const ui = toUiMessage(message, names.get(message.id));
      out.push(ui);
      calls = callsOf(ui, message);
    }
    previous = message;
  }
  return out;
}

/** A waiting call's part once its output came: the output, or the denial of a call that needed approval. */
function answeredPart(part: ToolPart, content: string): Partial<ToolPart> {
  if (part.state !== 'approval-requested')
    return { state: 'output-available', output: jsonOrText(content) } as Partial<ToolPart>;
  const output = jsonOrText(content) as { ok?: unknown; error?: unknown; reason?: unknown };
  const denied = typeof output === 'object' && output !== null && output.ok === false && output.error === DENIED;
  const approval = {
    id: part.approval.id,
    approved: !denied,
    ...(denied && typeof output.reason === 'string' ? { reason: output.reason } : {}),
  };
  return (
    denied ? { state: 'output-denied', approval } : { state: 'output-available', output, approval }
  ) as Partial<ToolPart>;
}

/** The client tool parts of `ui` that `message` added, by call id; null when it called none. */
function callsOf(ui: StoredUiMessage, message: Message): Map<string, ToolPart> | null {
  if (message.role !== 'assistant' || !message.functionCalls?.length) return null;
  const ids = new Set(message.functionCalls.map((c) => c.callId));
  const parts = ui.parts.filter((p): p is ToolPart => isToolPart(p) && ids.has(p.toolCallId));
  return new Map(parts.map((p) => [p.toolCallId, p]));
}

/**
 * A stored message as the AI SDK's UIMessage, to seed `useChat({ messages })`: the agent's tools
 * it ran as tool parts, its text (state `streaming` while the reply is generated, under the id
 * its resumed stream's `start` names), the state an update_state call left, the client's tools it
 * called (waiting for their outputs), and what we know of it as metadata.
 */
export function toUiMessage(message: Message, clientId?: string): StoredUiMessage {
  const parts: UIMessage['parts'] = [];
  (message.toolCalls ?? []).forEach((call, i) => {
    parts.push({
      type: `tool-${call.name}`,
      toolCallId: toolCallIdOf(message.id, i),
      state: 'output-available',
      input: jsonOrText(call.arguments),
      output: jsonOrText(call.result),
    });
  });
  if (message.content)
    parts.push({ type: 'text', text: message.content, state: message.status === 'streaming' ? 'streaming' : 'done' });
  const state = stateAfterTools(message.toolCalls);
  if (state) parts.push({ type: 'data-state', id: 'state', data: state });
  for (const call of message.functionCalls ?? []) {
    const waiting = { type: `tool-${call.name}` as const, toolCallId: call.callId, input: jsonOrText(call.arguments) };
    // A call of the agent's tool waits for the client's approval; one of the client's, for its output.
    parts.push(
      AGENT_TOOLS.has(call.name)
        ? { ...waiting, state: 'approval-requested', approval: { id: approvalIdOf(call.callId) } }
        : { ...waiting, state: 'input-available' },
    );
  }
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
            usage: storedUsage(message),
            error: replyErrorOf(message),
          }
        : {}),
    },
  };
}
