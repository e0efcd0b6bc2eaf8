import type { PromptMessage } from '../llm/llm.port.js';

export interface ContextInput {
  /** Operator and agent instructions, in order; blank ones are skipped. */
  readonly systemPrompts: ReadonlyArray<string | undefined>;
  /** Stored history before the new message, oldest first. */
  readonly history: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  readonly window: number;
  readonly newMessage: string;
}

/**
 * What the model sees on a turn: the system prompts, then the last `window` user/assistant
 * messages in order, then the new message. System and tool rows of the history are not
 * replayed as dialogue, and empty contents are dropped.
 */
export function buildContext(input: ContextInput): PromptMessage[] {
  const system: PromptMessage[] = input.systemPrompts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((content) => ({ role: 'system', content }));
  const dialogue: PromptMessage[] = input.history
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content !== '')
    .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
  const recent = input.window > 0 ? dialogue.slice(-input.window) : [];
  return [...system, ...recent, { role: 'user', content: input.newMessage }];
}

/**
 * The system message that shows the model the conversation's state, or undefined when there
 * is nothing to show (an empty state, and no tool to fill it).
 */
export function stateMessage(state: Record<string, unknown> | null | undefined, canUpdate: boolean): string | undefined {
  const empty = !state || Object.keys(state).length === 0;
  if (empty && !canUpdate) return undefined;
  const how = canUpdate ? ' Change it with the update_state tool.' : '';
  return `Conversation state (JSON, shared by all threads of this conversation).${how}\n${JSON.stringify(state ?? {})}`;
}
