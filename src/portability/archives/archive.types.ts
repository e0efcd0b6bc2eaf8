/**
 * The normalized shape every archive reader produces: one validated tree per conversation, in a
 * form the tree import can store without knowing where it came from.
 */

/** Where a conversation came from (our own `chat-memory` files are read by our own importer). */
export type ArchiveSource = 'chatgpt' | 'open-webui';

export type ArchiveMessageStatus = 'complete' | 'failed' | 'cancelled';

export interface ArchiveMessage {
  /** The node id in the source archive (unique within its conversation). */
  id: string;
  /** The nearest visible ancestor; null for a first message (several roots are several first versions). */
  parentId: string | null;
  role: 'user' | 'assistant';
  content: string;
  /** Reasoning the source showed apart from the answer (ChatGPT "thoughts"); never part of `content`. */
  reasoning: string | null;
  createdAt: Date;
  model: string | null;
  /** An interrupted reply keeps its text with `cancelled`; an errored one is `failed`. */
  status: ArchiveMessageStatus;
}

/** What could not be carried over as text, counted per kind for the import report. */
export interface DroppedParts {
  /** Images and image generations (asset pointers: the files themselves are not in the archive). */
  images: number;
  /** Attached files and audio without a transcript. */
  files: number;
  /** Tool traffic that has no text worth keeping (browsing, search results, plugin calls). */
  toolMessages: number;
  /** Reasoning summaries that could not be attached to a reply. */
  reasoning: number;
  /** Non-empty system or hidden context nodes other than the user's instructions. */
  hiddenMessages: number;
  /** Parts of a type this reader does not know. */
  other: number;
}

export interface ArchiveConversation {
  source: ArchiveSource;
  sourceId: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  /** The user's custom instructions or the chat's system prompt, if the archive has one. */
  systemPrompt: string | null;
  /** Parents always come before their children; siblings in creation order. */
  messages: ArchiveMessage[];
  /** The leaf the user was last on; always the id of a leaf in `messages`. */
  activeLeafId: string;
  /** Number of messages that have more than one child (where versions diverge). */
  branchPoints: number;
  dropped: DroppedParts;
  /** Repairs made while reading (e.g. the recorded active leaf did not exist). */
  notes: string[];
}

/** A conversation that was not read, with the reason, for the import report. */
export interface SkippedConversation {
  /** Position in the archive's top-level array, from 0. */
  index: number;
  sourceId: string | null;
  title: string | null;
  reason: string;
}

export type ArchiveEntry =
  | { kind: 'conversation'; index: number; conversation: ArchiveConversation }
  | { kind: 'skipped'; skipped: SkippedConversation };

export interface ArchiveLimits {
  /** A conversation whose JSON is larger than this is skipped unparsed. */
  maxConversationBytes: number;
  /** Nodes in one conversation's tree (hidden ones included). */
  maxNodes: number;
  /** Visible messages on the longest path. */
  maxDepth: number;
}

/** The bounds of reading one archive, over those of each conversation. */
export interface ArchiveReadLimits extends ArchiveLimits {
  /** Conversations (read or skipped) in one archive: past them the import is refused, so its work is bounded. */
  maxConversations: number;
  /** A conversation of our own export whose JSON is larger than this is skipped unparsed. */
  maxOwnConversationBytes: number;
  /** Agents of our own export read: the rest are skipped. */
  maxAgents: number;
  /** Memories of our own export read: past them none is taken. */
  maxMemories: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveReadLimits = {
  // Parsing 4 MiB of JSON and building its tree takes about 100 ms here: the longest the event loop waits.
  maxConversationBytes: 4 * 1024 * 1024,
  maxNodes: 50_000,
  maxDepth: 10_000,
  // About 100,000 tiny invalid conversations are read and skipped in a second or two.
  maxConversations: 100_000,
  // Our own export parses faster than other tools' archives (no tree to rebuild; messages are checked a slice at a time).
  maxOwnConversationBytes: 16 * 1024 * 1024,
  maxAgents: 1_000,
  maxMemories: 100_000,
};

export function noDroppedParts(): DroppedParts {
  return { images: 0, files: 0, toolMessages: 0, reasoning: 0, hiddenMessages: 0, other: 0 };
}
