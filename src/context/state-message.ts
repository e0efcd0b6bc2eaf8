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

/** How the running summary is shown to the model. */
export function summaryMessage(summary: string): string {
  return `Summary of the earlier part of this conversation (older messages are not shown):\n${summary}`;
}
