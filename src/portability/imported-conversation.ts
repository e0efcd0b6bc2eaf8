import type { ReplyError, ReplyErrorCode } from '../common/domain-error.js';
import type { ConversationState } from '../conversations/conversation.entity.js';
import type { MessageStatus, MessageVersion, ToolCallRecord } from '../conversations/message.entity.js';
import { normalizeTags } from '../conversations/tags.js';
import { titleFromMessage } from '../conversations/title.js';
import type {
  ExportVersion,
  IMPORT_ROLES,
  ExportedConversation,
  ExportedMessage,
  ExportedMessageError,
} from './export-document.js';
import { importedError } from './export-error-status.js';
import type { ImportedTree } from './export-tree.js';

/** What a reply still being generated at export time is imported as (its generator is not coming). */
const EXPORTED_WHILE_STREAMING: ReplyError = {
  code: 'interrupted',
  message: 'The reply was still being generated when the conversation was exported',
};

/** A conversation ready to be stored: validated, normalized, `seq` renumbered 1..n. */
export interface ConversationImport {
  /** 1: a linear history (`versions` become siblings); 2: `tree` says where each message is. */
  readonly version: ExportVersion;
  /** Version 2 only. */
  readonly tree: ImportedTree | null;
  readonly title: string;
  readonly createdAt: Date;
  readonly state: ConversationState;
  readonly archived: boolean;
  readonly pinned: boolean;
  readonly tags: string[];
  readonly threads: ReadonlyArray<{ name: string; systemPrompt: string | null; createdAt: Date; updatedAt: Date }>;
  readonly summaries: ReadonlyArray<{
    thread: string;
    content: string;
    coversSeq: number;
    tokens: number;
    model: string;
    promptTokens: number;
    completionTokens: number;
    updatedAt: Date;
  }>;
  readonly messages: ReadonlyArray<ImportedMessage>;
}

export interface ImportedMessage {
  readonly seq: number;
  readonly thread: string;
  readonly role: (typeof IMPORT_ROLES)[number];
  readonly content: string;
  /** Never `streaming`: such a reply is imported as `failed`. */
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly model: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly errorCode: ReplyErrorCode | null;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly versions: MessageVersion[] | null;
  readonly toolCalls: ToolCallRecord[] | null;
  readonly reasoning: string | null;
  readonly reasoningMs: number | null;
}

/** A valid conversation export as an import stores it: `seq` renumbered, threads and summaries filled in. */
export function buildImport(
  c: ExportedConversation,
  state: ConversationState,
  now: Date,
  version: ExportVersion,
  tree: ImportedTree | null,
): ConversationImport {
  const createdAt = new Date(c.createdAt);
  const messages = buildMessages(c.messages, version);
  return {
    version,
    tree,
    title: titleFromMessage(c.title),
    createdAt,
    state,
    archived: c.archived ?? false,
    pinned: c.pinned ?? false,
    tags: normalizeTags(c.tags ?? []),
    threads: buildThreads(c, messages.list, createdAt),
    summaries: buildSummaries(c, messages.renumber, now),
    messages: messages.list,
  };
}

/** A document's error as stored: by code, which the reply's status and the error's statusCode tell. */
const errorOf = (e: ExportedMessageError | null | undefined, status: string) =>
  importedError(e ? { statusCode: e.statusCode, message: e.message } : null, status);

function buildMessages(
  raw: readonly ExportedMessage[],
  version: ExportVersion,
): { list: ImportedMessage[]; renumber: (oldSeq: number) => number } {
  const list = raw.map((m, i): ImportedMessage => {
    const streaming = m.status === 'streaming';
    // A failed reply keeps why it failed, a truncated one why it was cut.
    const keepsError = m.status === 'failed' || m.status === 'truncated';
    const error = streaming ? EXPORTED_WHILE_STREAMING : keepsError ? errorOf(m.error, m.status) : null;
    // Version 2 keeps every answer as a message of its own.
    const versions = (version === 1 ? (m.versions ?? []) : []).map((v) => ({
      content: v.content,
      status: v.status,
      model: v.model ?? null,
      promptTokens: v.promptTokens ?? null,
      completionTokens: v.completionTokens ?? null,
      error: errorOf(v.error, v.status),
      createdAt: new Date(v.createdAt).toISOString(),
    }));
    const toolCalls = (m.toolCalls ?? []).map((t) => ({ name: t.name, arguments: t.arguments, result: t.result }));
    return {
      seq: i + 1,
      thread: m.thread,
      role: m.role as ImportedMessage['role'],
      content: m.content,
      status: streaming ? 'failed' : (m.status as ImportedMessage['status']),
      model: m.model ?? null,
      promptTokens: m.promptTokens ?? null,
      completionTokens: m.completionTokens ?? null,
      errorCode: error?.code ?? null,
      errorMessage: error?.message ?? null,
      createdAt: new Date(m.createdAt),
      versions: versions.length ? versions : null,
      toolCalls: toolCalls.length ? toolCalls : null,
      reasoning: m.reasoning || null,
      reasoningMs: m.reasoning ? (m.reasoningMs ?? null) : null,
    };
  });
  const oldSeqs = raw.map((m) => m.seq);
  // The new seq of the last message at or before an old one (0: none), for what summaries cover
  // (a binary search: the seqs are strictly increasing).
  const renumber = (oldSeq: number): number => {
    let lo = 0;
    let hi = oldSeqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (oldSeqs[mid] <= oldSeq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { list, renumber };
}

function buildThreads(
  c: ExportedConversation,
  messages: readonly ImportedMessage[],
  defaultTime: Date,
): ConversationImport['threads'] {
  const threads = (c.threads ?? []).map((t) => {
    const createdAt = t.createdAt === undefined ? undefined : new Date(t.createdAt);
    const updatedAt = t.updatedAt === undefined ? undefined : new Date(t.updatedAt);
    return {
      name: t.name,
      systemPrompt: t.systemPrompt ?? null,
      createdAt: createdAt ?? defaultTime,
      updatedAt: updatedAt ?? createdAt ?? defaultTime,
    };
  });
  const seen = new Set(threads.map((t) => t.name));
  // A thread that has messages but is not listed is created without a prompt, as a turn would.
  for (const m of messages) {
    if (seen.has(m.thread)) continue;
    seen.add(m.thread);
    threads.push({ name: m.thread, systemPrompt: null, createdAt: m.createdAt, updatedAt: m.createdAt });
  }
  return threads;
}

function buildSummaries(
  c: ExportedConversation,
  renumber: (oldSeq: number) => number,
  now: Date,
): ConversationImport['summaries'] {
  return (c.summaries ?? []).flatMap((s) => {
    const covers = renumber(s.coversSeq);
    // A summary of nothing that is imported is dropped; the model folds the history again.
    if (covers === 0) return [];
    return [
      {
        thread: s.thread,
        content: s.content,
        coversSeq: covers,
        tokens: s.tokens,
        model: s.model,
        promptTokens: s.promptTokens ?? 0,
        completionTokens: s.completionTokens ?? 0,
        updatedAt: s.updatedAt === undefined ? now : new Date(s.updatedAt),
      },
    ];
  });
}
