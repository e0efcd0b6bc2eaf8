import { plainToInstance } from 'class-transformer';
import type { ReplyError, ReplyErrorCode } from '../common/domain-error.js';
import { validateSync, type ValidatorOptions } from 'class-validator';
import type { ConversationState } from '../conversations/conversation.entity.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import type { MessageStatus, MessageVersion, ToolCallRecord } from '../conversations/message.entity.js';
import { validState } from '../conversations/state.js';
import { MAX_TAG_CHARS, normalizeTags } from '../conversations/tags.js';
import { titleFromMessage } from '../conversations/title.js';
import {
  ACCOUNT_EXPORT_FORMAT,
  CONVERSATION_EXPORT_FORMAT,
  ConversationExport,
  EXPORT_VERSION,
  EXPORT_VERSIONS,
  type ExportVersion,
  type IMPORT_ROLES,
  type ExportedConversation,
  ExportedMessage,
  type ExportedMessageError,
} from './export-document.js';
import { NOT_AN_OBJECT } from './export-fields.js';
import { importedError } from './export-error-status.js';
import { checkTree, type ImportedTree } from './export-tree.js';
import { Problems, ProblemsByPart, problemsOf, type ExportProblem } from './import-problems.js';

/** What a reply still being generated at export time is imported as (its generator is not coming). */
const EXPORTED_WHILE_STREAMING: ReplyError = {
  code: 'interrupted',
  message: 'The reply was still being generated when the conversation was exported',
};

/** A conversation ready to be stored: validated, normalized, `seq` renumbered 1..n. */
interface ConversationImport {
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

/**
 * Unknown keys are ignored, as informative ones (ids, an agent's settings) are: a file may come
 * from a newer version or another tool. class-transformer copies only described fields
 * (excludeExtraneousValues), so what it walks is bounded by the description, not by the input.
 */
const VALIDATION: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: false,
  stopAtFirstError: true,
  validationError: { target: false },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a conversation export and turns it into what an import stores. A document of another
 * format or version is refused with that one problem; otherwise every problem found is
 * counted, and the first MAX_LISTED_PROBLEMS are listed with their JSON paths, part by part: the
 * conversation's fields, then each message, thread and summary with its own problems.
 */
export async function parseConversationExport(
  input: unknown,
  limits: { readonly maxMessageChars: number },
  now = new Date(),
): Promise<ConversationImport> {
  const problems = new Problems();
  if (!isObject(input)) {
    problems.add('$', input === undefined ? 'is missing (a JSON object)' : NOT_AN_OBJECT);
    throw problems.rejection();
  }
  if (input.format !== CONVERSATION_EXPORT_FORMAT) {
    problems.add(
      '$.format',
      input.format === ACCOUNT_EXPORT_FORMAT
        ? `is "${ACCOUNT_EXPORT_FORMAT}" (a whole account): import its conversations one at a time, each item of "conversations" is a conversation export`
        : `must be "${CONVERSATION_EXPORT_FORMAT}" (this is not a conversation export of this service)`,
    );
    throw problems.rejection();
  }
  if (!(EXPORT_VERSIONS as readonly unknown[]).includes(input.version)) {
    problems.add(
      '$.version',
      Number.isInteger(input.version) && (input.version as number) > EXPORT_VERSION
        ? `${String(input.version)} is newer than this server reads (${EXPORT_VERSION})`
        : `must be ${EXPORT_VERSIONS.join(' or ')}`,
    );
    throw problems.rejection();
  }
  const version = input.version as ExportVersion;

  // The messages are checked apart, a slice at a time, so a long conversation does not hold the
  // event loop: class-validator takes tens of microseconds per message.
  const raw0 = input.conversation;
  const rawMessages = isObject(raw0) && Array.isArray(raw0.messages) ? (raw0.messages as unknown[]) : null;
  const head = rawMessages && isObject(raw0) ? { ...input, conversation: { ...raw0, messages: [] } } : input;
  const doc = plainToInstance(ConversationExport, head, { excludeExtraneousValues: true });
  const docProblems = problemsOf(validateSync(doc, VALIDATION), '$');
  const messageProblems = rawMessages ? await checkMessageItems(doc.conversation, rawMessages, version) : [];
  const found = new ProblemsByPart([...docProblems, ...messageProblems]);
  problems.addAll(found.take('$.exportedAt'));
  problems.addAll(found.take('$.conversation'));
  const raw = input.conversation;
  if (!isObject(raw)) throw problems.rejection();
  const c = doc.conversation;
  const at = '$.conversation';

  for (const field of ['title', 'createdAt', 'updatedAt']) problems.addAll(found.take(`${at}.${field}`));
  const state = checkState(problems, raw.state, at);
  for (const field of ['archived', 'pinned']) problems.addAll(found.take(`${at}.${field}`));
  const tagList = found.take(`${at}.tags`);
  problems.addAll(tagList);
  if (tagList.length === 0) checkTags(problems, c, at);
  problems.addAll(found.take(`${at}.agent`));
  problems.addAll(found.take(`${at}.messages`));
  checkMessages(problems, found, c, at, limits.maxMessageChars);
  problems.addAll(found.take(`${at}.threads`));
  checkUnique(problems, found, c.threads, `${at}.threads`, 'name', (name) => `"${name}" is listed twice`);
  problems.addAll(found.take(`${at}.summaries`));
  checkUnique(
    problems,
    found,
    c.summaries,
    `${at}.summaries`,
    'thread',
    (thread) => `"${thread}" has a summary already`,
  );
  problems.addAll(found.rest());

  if (problems.total > 0) throw problems.rejection();
  const tree = version === 2 ? checkTree(problems, c, at) : null;
  if (problems.total > 0) throw problems.rejection();
  return build(c, state, now, version, tree);
}

/** How many messages are checked between two turns of the event loop (a few tens of milliseconds' work). */
const MESSAGES_PER_SLICE = 1_000;

/**
 * Each message of the document as ExportedMessage, validated alone, a slice at a time with the
 * event loop let go between slices; the instances replace the conversation's (empty) list.
 * Returns their problems, with the paths a whole-document validation would give them.
 */
async function checkMessageItems(
  conversation: ExportedConversation | undefined,
  items: readonly unknown[],
  version: ExportVersion,
): Promise<ExportProblem[]> {
  const problems: ExportProblem[] = [];
  const messages: ExportedMessage[] = [];
  for (let start = 0; start < items.length; start += MESSAGES_PER_SLICE) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    items.slice(start, start + MESSAGES_PER_SLICE).forEach((item, j) => {
      const path = `$.conversation.messages[${start + j}]`;
      if (!isObject(item)) {
        problems.push({ path, message: NOT_AN_OBJECT });
        messages.push(item as ExportedMessage);
        return;
      }
      // Version 1 has no message ids or parents: such keys are ignored there, as they always were.
      const described = version === 1 ? { ...item, id: undefined, parentId: undefined } : item;
      const message = plainToInstance(ExportedMessage, described, { excludeExtraneousValues: true });
      problems.push(...problemsOf(validateSync(message, VALIDATION), path));
      messages.push(message);
    });
  }
  if (conversation) (conversation as { messages: ExportedMessage[] }).messages = messages;
  return problems;
}

// ---------------------------------------------------------------------------------------------
// What depends on more than one value (the class-validator rules check each value alone)

function checkState(problems: Problems, value: unknown, at: string): ConversationState {
  if (value === undefined) return {};
  try {
    return validState(value);
  } catch (error) {
    // Serializing a state nested thousands deep overflows the stack: it is no state either.
    if (error instanceof RangeError) problems.add(`${at}.state`, 'is nested too deeply');
    else if (error instanceof InvalidInputError) problems.add(`${at}.state`, error.message.replace(/^state /, ''));
    else throw error;
    return {};
  }
}

/** Tags as the service stores them: trimmed, not blank, at most MAX_TAG_CHARS. */
function checkTags(problems: Problems, c: ExportedConversation, at: string): void {
  if (!Array.isArray(c.tags)) return;
  c.tags.forEach((tag: unknown, i) => {
    const path = `${at}.tags[${i}]`;
    if (typeof tag !== 'string') return problems.add(path, 'must be a string');
    if (!tag.trim()) return problems.add(path, 'must not be empty');
    if (tag.trim().length > MAX_TAG_CHARS)
      return problems.add(path, `is ${tag.trim().length} characters long; the limit is ${MAX_TAG_CHARS}`);
  });
}

/** Each message's own problems, then: seq strictly increasing, a user message complete, not blank, within MAX_MESSAGE_CHARS. */
function checkMessages(
  problems: Problems,
  found: ProblemsByPart,
  c: ExportedConversation,
  at: string,
  maxMessageChars: number,
): void {
  if (!Array.isArray(c.messages)) return;
  let previousSeq = 0;
  c.messages.forEach((m: ExportedMessage, i) => {
    const path = `${at}.messages[${i}]`;
    const own = found.take(path);
    problems.addAll(own);
    if (!isObject(m)) return;
    const valid = (field: keyof ExportedMessage) => !own.some((p) => p.path === `${path}.${field}`);
    if (valid('seq')) {
      if (m.seq <= previousSeq)
        problems.add(
          `${path}.seq`,
          `must be greater than the seq before it (${previousSeq}): messages are listed in seq order`,
        );
      previousSeq = Math.max(previousSeq, m.seq);
    }
    if (valid('content') && m.role !== 'assistant' && m.content.length > maxMessageChars) {
      problems.add(
        `${path}.content`,
        `is ${m.content.length} characters long; the limit is ${maxMessageChars} (MAX_MESSAGE_CHARS)`,
      );
    } else if (valid('content') && m.role === 'user' && !m.content.trim()) {
      problems.add(`${path}.content`, 'must not be empty for a user message');
    }
    if (m.role === 'user' && valid('status') && m.status !== 'complete')
      problems.add(`${path}.status`, 'must be "complete" for a user message');
  });
}

/** Each item's own problems, then: no two items with the same `key` (checked once it is valid). */
function checkUnique<K extends string>(
  problems: Problems,
  found: ProblemsByPart,
  items: ReadonlyArray<Record<K, string>> | undefined,
  at: string,
  key: K,
  twice: (value: string) => string,
): void {
  if (!Array.isArray(items)) return;
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const path = `${at}[${i}]`;
    const own = found.take(path);
    problems.addAll(own);
    if (!isObject(item) || own.some((p) => p.path === `${path}.${key}`)) return;
    const value = item[key] as string;
    if (seen.has(value)) problems.add(`${path}.${key}`, twice(value));
    seen.add(value);
  });
}

// ---------------------------------------------------------------------------------------------
// A valid document, as stored

function build(
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
