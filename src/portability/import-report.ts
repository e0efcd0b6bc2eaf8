import type { ImportedAgentReport } from './account-agents.js';
import { type DroppedParts, noDroppedParts } from './archives/archive.types.js';

/** Skipped conversations listed in a report (all are counted). */
const MAX_LISTED_SKIPPED = 100;
/** Imported conversations listed in a report (all are counted). */
const MAX_LISTED_IMPORTED = 10_000;
/** A title or source id in a report is cut to this many characters. */
const MAX_REPORTED_NAME_CHARS = 200;
/** A reason in a report is cut to this many characters. */
const MAX_REPORTED_REASON_CHARS = 1_000;
/** Memories of a file listed in a report (all are counted). */
export const MAX_LISTED_MEMORIES = 100;
/** A memory's text or an agent's system prompt in a report is cut to this many characters: enough to see what it would tell the model. */
export const MAX_REPORTED_TEXT_CHARS = 300;

interface ImportedArchiveConversation {
  /** The new conversation's id; null in a dry run. */
  id: string | null;
  sourceId: string;
  title: string;
  messages: number;
  /** Messages with more than one child: where versions diverge. */
  branches: number;
  /** Set when these are new messages added to a conversation imported before (its id): `messages` counts only them. */
  appendedTo?: string;
}

interface SkippedArchiveConversation {
  /** Position in the file, from 0. */
  index: number;
  sourceId: string | null;
  title: string | null;
  reason: string;
  /** `already_imported`: the account holds this conversation already (imported before, or its own); absent for other reasons. */
  code?: 'already_imported';
}

/** What an import takes from a file besides its conversations: nothing unless asked for. */
export interface ImportRequested {
  /** The file's long-term memories (global ones, read into every later turn). */
  memories: boolean;
  /** The file's agents (their system prompts and tools). */
  agents: boolean;
  /** Keep the pin of the memories pinned in the file (otherwise every memory taken is unpinned). */
  pinMemories: boolean;
}

export const NOTHING_BUT_CONVERSATIONS: ImportRequested = { memories: false, agents: false, pinMemories: false };

/** A memory of the file as the report shows it. */
interface ListedMemory {
  /** Its text, cut to MAX_REPORTED_TEXT_CHARS. */
  text: string;
  /** Pinned in the file (kept only when pinMemories was asked for). */
  pinned: boolean;
}

interface ImportedMemoriesReport {
  /** Memories taken (in a dry run: that would be taken). */
  imported: number;
  skipped: number;
  /** Why they were not taken (not asked for, or not valid); null otherwise. */
  reason: string | null;
  /** The first MAX_LISTED_MEMORIES memories of the file, whether taken or not. */
  items: ListedMemory[];
}

export interface ArchiveImportReport {
  format: 'chatgpt' | 'open-webui' | 'chat-memory' | 'empty';
  dryRun: boolean;
  /** What the request asked to import besides conversations. */
  requested: ImportRequested;
  /** The ZIP entry that was read (e.g. conversations.json), or null when the upload was JSON. */
  zipEntry: string | null;
  /** Conversations imported (in a dry run: that would be). */
  importedCount: number;
  /** The first MAX_LISTED_IMPORTED of them. */
  imported: ImportedArchiveConversation[];
  /** Conversations skipped, with the first MAX_LISTED_SKIPPED listed in `skipped`. */
  skippedCount: number;
  skipped: SkippedArchiveConversation[];
  /** What the imported conversations had that is not text, counted (plus reasoning, which is not stored). */
  dropped: DroppedParts;
  /** The agents of a chat-memory account export, each created, reused or renamed (or skipped, with why: not asked for, not valid, the limit). */
  agents: ImportedAgentReport[];
  /** Of those, the ones skipped: their conversations come without an agent. */
  agentsNotImported: number;
  /** The long-term memories of a chat-memory account export: listed, and how many were (or would be) taken, or why none were. */
  memories: ImportedMemoriesReport;
}

export function emptyReport(
  format: ArchiveImportReport['format'],
  dryRun: boolean,
  zipEntry: string | null,
  requested: ImportRequested = NOTHING_BUT_CONVERSATIONS,
): ArchiveImportReport {
  return {
    format,
    dryRun,
    requested: { ...requested },
    zipEntry: cut(zipEntry, MAX_REPORTED_NAME_CHARS),
    importedCount: 0,
    imported: [],
    skippedCount: 0,
    skipped: [],
    dropped: noDroppedParts(),
    agents: [],
    agentsNotImported: 0,
    memories: { imported: 0, skipped: 0, reason: null, items: [] },
  };
}

/** Counts a conversation imported, listed while there is room: a report's size is bounded, whatever the file. */
export function reportImported(report: ArchiveImportReport, conversation: ImportedArchiveConversation): void {
  report.importedCount++;
  if (report.imported.length >= MAX_LISTED_IMPORTED) return;
  report.imported.push({
    ...conversation,
    sourceId: cut(conversation.sourceId, MAX_REPORTED_NAME_CHARS),
    title: cut(conversation.title, MAX_REPORTED_NAME_CHARS),
  });
}

/** Counts a conversation skipped, listed (its texts cut) while there is room. */
export function reportSkipped(report: ArchiveImportReport, skipped: SkippedArchiveConversation): void {
  report.skippedCount++;
  if (report.skipped.length >= MAX_LISTED_SKIPPED) return;
  report.skipped.push({
    index: skipped.index,
    sourceId: cut(skipped.sourceId, MAX_REPORTED_NAME_CHARS),
    title: cut(skipped.title, MAX_REPORTED_NAME_CHARS),
    reason: cut(skipped.reason, MAX_REPORTED_REASON_CHARS),
    ...(skipped.code ? { code: skipped.code } : {}),
  });
}

/** At most `max` characters, cut by code points (an emoji is never split), with an ellipsis when cut. */
export function cut<T extends string | null>(text: T, max: number): T {
  if (text === null || text.length <= max) return text;
  return (Array.from(text.slice(0, max + 1))
    .slice(0, max - 1)
    .join('') + '…') as T;
}
