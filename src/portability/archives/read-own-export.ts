import { TooManyConversationsError, UnknownArchiveFormatError } from './archive.errors.js';
import type { ArchiveReadLimits, SkippedConversation } from './archive.types.js';
import { parseArchiveJson } from './archive-values.js';
import type { EventLoopTurns } from './event-loop-turns.js';
import type { ArrayElement } from './json-array-splitter.js';
import { type MemberPolicy, type ObjectPart, splitJsonObject } from './json-object-splitter.js';

/** Our own exports' `format` starts with this. */
const OWN_FORMAT_PREFIX = 'chat-memory.';

/** The members of our export that are small values: read before its conversations (`format` first of all). */
const SCALARS = new Set(['format', 'version', 'exportedAt', 'actor']);
const SCALAR_BYTES = 4096;
/** An agent's settings are at most ~40,000 characters (its system prompt 32,000). */
const AGENT_BYTES = 256 * 1024;
/** A memory is at most 1,000 characters. */
const MEMORY_BYTES = 16 * 1024;

/** Our own export (an account, or one conversation), read a part at a time, in this order. */
export type OwnExportPart =
  /** The file's agents, before its first conversation: each as parsed (null: not JSON or too large); `notRead` past `maxAgents`. */
  | { kind: 'agents'; agents: unknown[]; notRead: number }
  /** A conversation export document, to be checked by the conversation importer. */
  | { kind: 'conversation'; index: number; document: unknown }
  | { kind: 'skipped'; skipped: SkippedConversation }
  /** The file's memories, after its conversations (as parsed; null: not JSON or too large); `notRead` past `maxMemories`. */
  | { kind: 'memories'; memories: unknown[]; notRead: number };

function policyOf(key: string, limits: ArchiveReadLimits): MemberPolicy {
  if (SCALARS.has(key)) return { keep: SCALAR_BYTES };
  switch (key) {
    case 'conversations':
      return { elements: limits.maxOwnConversationBytes };
    // A single conversation's export: the document itself is the conversation.
    case 'conversation':
      return { keep: limits.maxOwnConversationBytes };
    case 'agents':
      return { elements: AGENT_BYTES };
    case 'memories':
      return { elements: MEMORY_BYTES };
    default:
      // Shares (not imported), and anything a newer version or another tool adds.
      return 'skip';
  }
}

/**
 * A JSON object that should be our own export, read as a stream like the other archives: its
 * `format` must come before its agents, conversations and memories (as the service writes it), or
 * it is not taken for one (UnknownArchiveFormatError). Memory is one conversation at a time (at most
 * `maxOwnConversationBytes`; a larger one is skipped unparsed), plus the file's agents and memories
 * (bounded by `maxAgents` and `maxMemories`). More than `maxConversations` conversations is
 * TooManyConversationsError, when the reading gets there.
 */
export async function readOwnExport(
  source: AsyncIterable<Buffer>,
  limits: ArchiveReadLimits,
  turns: EventLoopTurns,
): Promise<AsyncGenerator<OwnExportPart>> {
  const parts = splitJsonObject(source, (key) => policyOf(key, limits));
  const head: Record<string, unknown> = {};
  let first: ObjectPart | null = null;
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done) break;
      const part = next.value;
      if (part.kind === 'member' && SCALARS.has(part.key)) {
        head[part.key] = valueOf(part.value);
        if (part.key === 'format') break;
        continue;
      }
      first = part;
      break;
    }
  } catch (error) {
    await parts.return(undefined);
    throw error;
  }
  if (typeof head.format !== 'string' || !head.format.startsWith(OWN_FORMAT_PREFIX)) {
    await parts.return(undefined);
    throw new UnknownArchiveFormatError(
      typeof head.format === 'string' || first === null
        ? 'an object without "format": "chat-memory.account"'
        : 'an object whose "format" does not come before its conversations',
    );
  }
  return ownParts(head, first, parts, limits, turns);
}

async function* ownParts(
  head: Record<string, unknown>,
  first: ObjectPart | null,
  rest: AsyncGenerator<ObjectPart>,
  limits: ArchiveReadLimits,
  turns: EventLoopTurns,
): AsyncGenerator<OwnExportPart> {
  const agents: unknown[] = [];
  const memories: unknown[] = [];
  let agentsNotRead = 0;
  let memoriesNotRead = 0;
  let agentsGiven = false;
  let single: ArrayElement | null = null;
  try {
    for (let next = first ?? (await nextOf(rest)); next !== null; next = await nextOf(rest)) {
      await turns.give();
      const part = next;
      if (part.kind === 'end') continue;
      if (part.kind === 'member') {
        // A member read element by element that is no array is nothing to import, as before.
        if (SCALARS.has(part.key)) head[part.key] = valueOf(part.value);
        else if (part.key === 'conversation') single = part.value;
        continue;
      }
      const { key, element } = part;
      if (key === 'agents') {
        if (agents.length < limits.maxAgents) agents.push(valueOf(element));
        else agentsNotRead++;
      } else if (key === 'memories') {
        if (memories.length < limits.maxMemories) memories.push(valueOf(element));
        else memoriesNotRead++;
      } else if (key === 'conversations') {
        if (element.index >= limits.maxConversations) throw new TooManyConversationsError(limits.maxConversations);
        // The agents first: the conversations are linked to them.
        if (!agentsGiven) {
          agentsGiven = true;
          yield { kind: 'agents', agents, notRead: agentsNotRead };
        }
        yield conversationOf(element, limits, (value) => value);
      }
    }
    if (!agentsGiven) yield { kind: 'agents', agents, notRead: agentsNotRead };
    if (single) yield conversationOf({ ...single, index: 0 }, limits, (conversation) => ({ ...head, conversation }));
    yield { kind: 'memories', memories, notRead: memoriesNotRead };
  } finally {
    // A consumer that stops early closes the input behind it.
    await rest.return(undefined);
  }
}

async function nextOf(parts: AsyncGenerator<ObjectPart>): Promise<ObjectPart | null> {
  const next = await parts.next();
  return next.done ? null : next.value;
}

function conversationOf(
  element: ArrayElement,
  limits: ArchiveReadLimits,
  documentOf: (value: unknown) => unknown,
): OwnExportPart {
  if ('oversized' in element) {
    return {
      kind: 'skipped',
      skipped: {
        index: element.index,
        ...ownNameOf(element.head),
        reason: `larger than ${limits.maxOwnConversationBytes} bytes (${element.bytes}): not read; import it alone with POST /api/conversations/import`,
      },
    };
  }
  try {
    return { kind: 'conversation', index: element.index, document: documentOf(parseArchiveJson(element.json)) };
  } catch (error) {
    return {
      kind: 'skipped',
      skipped: {
        index: element.index,
        sourceId: null,
        title: null,
        reason: `not valid JSON: ${(error as Error).message}`,
      },
    };
  }
}

/** An element as parsed, or null when it is not valid JSON or was too large to keep. */
function valueOf(element: ArrayElement): unknown {
  if ('oversized' in element) return null;
  try {
    return parseArchiveJson(element.json) as unknown;
  } catch {
    return null;
  }
}

/** Best effort at naming a conversation of our export too large to parse, from its first bytes (the service writes its id and title first). */
function ownNameOf(head: string): { sourceId: string | null; title: string | null } {
  const string = '("(?:[^"\\\\]|\\\\.){0,400}")';
  const pick = (pattern: RegExp): string | null => {
    const match = pattern.exec(head.slice(0, 2048));
    if (!match) return null;
    try {
      return JSON.parse(match[1]) as string;
    } catch {
      return null;
    }
  };
  return {
    sourceId: pick(new RegExp(`"conversation"\\s*:\\s*\\{\\s*"id"\\s*:\\s*${string}`)),
    title: pick(new RegExp(`"title"\\s*:\\s*${string}`)),
  };
}
