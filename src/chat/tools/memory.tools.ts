import type { Actor } from '../../actor-auth/actor.js';
import type { ToolSpec } from '../../llm/llm.port.js';
import { MAX_MEMORY_CHARS } from '../../memory/memory.entity.js';
import type { MemoryService } from '../../memory/memory.service.js';

export const REMEMBER_TOOL: ToolSpec = {
  name: 'remember',
  description:
    'Saves a fact about the user for later conversations (the user sees, edits and deletes what you save). ' +
    'Use it when the user asks you to remember something, or states a lasting preference. ' +
    'With `replaces`, the memory of that id (shown in the memory message) is corrected instead of adding another.',
  parameters: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        maxLength: MAX_MEMORY_CHARS,
        description: 'The fact, short and self-contained ("Prefers metric units").',
      },
      replaces: { type: 'string', description: 'The id of a memory this one corrects.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
};

export const FORGET_TOOL: ToolSpec = {
  name: 'forget',
  description:
    'Deletes a saved memory about the user, by the id shown in the memory message (when the user asks you to forget it, or it is wrong).',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string', description: 'The id of the memory.' } },
    required: ['id'],
    additionalProperties: false,
  },
};

/** Where a memory written during a turn was learned. */
interface MemorySource {
  readonly conversationId: string;
  readonly messageId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function argumentsOf(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const failure = (error: string) => JSON.stringify({ ok: false, error });

/**
 * Runs a remember call and returns the text the model gets back. A bad call (unparsable
 * arguments, no text, a text over the limit, an unknown id) is reported to the model, not
 * raised: the model can correct itself, and the turn goes on.
 */
export async function runRemember(
  memories: MemoryService,
  actor: Actor,
  source: MemorySource,
  rawArguments: string,
): Promise<string> {
  const args = argumentsOf(rawArguments);
  if (!args) return failure('arguments are not a JSON object');
  if (typeof args.text !== 'string') return failure('text must be a string');
  try {
    if (args.replaces !== undefined) {
      if (typeof args.replaces !== 'string' || !UUID.test(args.replaces))
        return failure(`no memory ${String(args.replaces)}`);
      const memory = await memories.update(actor, args.replaces.toLowerCase(), { text: args.text });
      return JSON.stringify({ ok: true, id: memory.id, replaced: true });
    }
    const memory = await memories.create(actor, {
      text: args.text,
      sourceConversationId: source.conversationId,
      sourceMessageId: source.messageId,
    });
    return JSON.stringify({ ok: true, id: memory.id });
  } catch (error) {
    return failure((error as Error).message);
  }
}

/** Runs a forget call; like runRemember, a bad call is reported to the model. */
export async function runForget(memories: MemoryService, actor: Actor, rawArguments: string): Promise<string> {
  const args = argumentsOf(rawArguments);
  if (!args) return failure('arguments are not a JSON object');
  if (typeof args.id !== 'string' || !UUID.test(args.id)) return failure(`no memory ${String(args.id)}`);
  try {
    await memories.delete(actor, args.id.toLowerCase());
    return JSON.stringify({ ok: true });
  } catch (error) {
    return failure((error as Error).message);
  }
}
