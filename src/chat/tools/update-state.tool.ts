import type { Actor } from '../../actor-auth/actor.js';
import type { ConversationsService } from '../../conversations/conversations.service.js';
import type { ToolSpec } from '../../llm/llm.port.js';

export const UPDATE_STATE_TOOL: ToolSpec = {
  name: 'update_state',
  description:
    "Changes the conversation's state (a JSON object shared by all its threads and shown to you in a system message). " +
    'The patch is merged into the state as a JSON merge patch: keys with objects merge, null removes a key, anything else replaces.',
  parameters: {
    type: 'object',
    properties: { patch: { type: 'object', description: 'The changes to merge into the state.' } },
    required: ['patch'],
    additionalProperties: false,
  },
};

/**
 * Runs an update_state call and returns the text the model gets back. A bad call (unparsable
 * arguments, no patch object, a state over the limit) is reported to the model, not raised:
 * the model can correct itself, and the turn goes on.
 */
export async function runUpdateState(
  conversations: ConversationsService,
  actor: Actor,
  conversationId: string,
  rawArguments: string,
): Promise<string> {
  let patch: unknown;
  try {
    patch = (JSON.parse(rawArguments || '{}') as { patch?: unknown }).patch;
  } catch {
    return JSON.stringify({ ok: false, error: 'arguments are not valid JSON' });
  }
  try {
    const state = await conversations.patchState(actor, conversationId, patch);
    return JSON.stringify({ ok: true, state });
  } catch (error) {
    return JSON.stringify({ ok: false, error: (error as Error).message });
  }
}
