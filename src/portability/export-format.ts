import type { Agent } from '../agents/agent.entity.js';
import type { AgentFields } from '../agents/agents.service.js';
import type { Conversation, ConversationState } from '../conversations/conversation.entity.js';
import { ConversationError, InvalidInputError } from '../conversations/conversation.errors.js';
import { versionOf, type Message, type MessageStatus, type MessageVersion, type ToolCallRecord } from '../conversations/message.entity.js';
import { validState } from '../conversations/state.js';
import type { Summary } from '../conversations/summary.entity.js';
import { THREAD_NAME, type Thread } from '../conversations/thread.entity.js';
import { titleFromMessage } from '../conversations/title.js';
import { MAX_TAG_CHARS, MAX_TAGS, normalizeTags } from '../conversations/tags.js';

/**
 * The portable form of conversations: what `GET .../export` writes and `POST .../import`
 * reads back. Versioned: a reader refuses a version it does not know instead of guessing.
 * Ids are informative only (an import always gets new ones); timestamps are ISO 8601 UTC.
 */
export const CONVERSATION_EXPORT_FORMAT = 'chat-memory.conversation';
/** Everything of one actor (`GET /api/me/export`): agents, and conversations in the format above. */
export const ACCOUNT_EXPORT_FORMAT = 'chat-memory.account';
export const EXPORT_VERSION = 1;

/** Replies are written by the model, never limited by MAX_MESSAGE_CHARS: they get the largest value MAX_REPLY_CHARS (the env variable) can take. */
export const MAX_REPLY_CHARS = 1_000_000;
export const MAX_TITLE_CHARS = 1000;
export const MAX_SYSTEM_PROMPT_CHARS = 32_000;
/** Roles an import accepts: the ones the service writes (a `tool` or `system` message would be replayed to the model). */
export const IMPORT_ROLES = ['user', 'assistant'] as const;
const VERSION_STATUSES = ['complete', 'truncated', 'failed', 'cancelled'] as const;
const MAX_INT = 2_147_483_647;
const MAX_MODEL_CHARS = 200;
const MAX_ERROR_CHARS = 10_000;
/** How many problems an answer lists (a foreign file could have thousands). */
export const MAX_LISTED_PROBLEMS = 20;

/** What a reply still being generated at export time is imported as (its generator is not coming). */
export const EXPORTED_WHILE_STREAMING = { status: 502, message: 'The reply was still being generated when the conversation was exported' };

// ---------------------------------------------------------------------------------------------
// The document

/** An agent as exported: all its settings when it is the caller's own, only `id` and `name` when another actor offers it. */
export interface ExportedAgent extends Omit<AgentFields, 'tools'> {
  readonly id: string;
  /** Tool names as written: a file from elsewhere may name tools this service does not have. */
  readonly tools?: string[];
  readonly createdAt?: string;
  readonly updatedAt?: string;
}

export interface ExportedThread {
  readonly name: string;
  readonly systemPrompt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ExportedSummary {
  readonly thread: string;
  readonly content: string;
  readonly coversSeq: number;
  readonly tokens: number;
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly updatedAt: string;
}

export interface ExportedMessage extends Required<MessageVersion> {
  readonly seq: number;
  readonly thread: string;
  readonly role: string;
  readonly versions: MessageVersion[];
  readonly toolCalls: ToolCallRecord[];
}

export interface ExportedConversation {
  readonly id: string;
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly state: ConversationState;
  readonly archived: boolean;
  readonly pinned: boolean;
  readonly tags: string[];
  readonly agent: ExportedAgent | null;
  readonly threads: ExportedThread[];
  readonly summaries: ExportedSummary[];
  readonly messages: ExportedMessage[];
}

export interface ConversationExport {
  readonly format: typeof CONVERSATION_EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  readonly exportedAt: string;
  readonly conversation: ExportedConversation;
}

export interface AccountExport {
  readonly format: typeof ACCOUNT_EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  readonly exportedAt: string;
  /** The actor the data belongs to, e.g. `api:alice`. */
  readonly actor: string;
  readonly agents: ExportedAgent[];
  /** Each one a complete conversation export, importable as it is. */
  readonly conversations: ConversationExport[];
}

export function exportAgent(agent: Agent, ownedByCaller: boolean): ExportedAgent {
  if (!ownedByCaller) return { id: agent.id, name: agent.name };
  return {
    id: agent.id,
    name: agent.name,
    emoji: agent.emoji,
    description: agent.description,
    systemPrompt: agent.systemPrompt,
    model: agent.model,
    temperature: agent.temperature,
    maxTokens: agent.maxTokens,
    contextTokenBudget: agent.contextTokenBudget,
    tools: [...agent.tools],
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

export function exportConversation(
  source: {
    readonly conversation: Conversation;
    readonly tags: readonly string[];
    readonly agent: ExportedAgent | null;
    readonly threads: readonly Thread[];
    readonly summaries: readonly Summary[];
    readonly messages: readonly Message[];
  },
  exportedAt: Date,
): ConversationExport {
  const c = source.conversation;
  return {
    format: CONVERSATION_EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    conversation: {
      id: c.id,
      title: c.title,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      state: c.state ?? {},
      archived: Boolean(c.archived),
      pinned: Boolean(c.pinned),
      tags: [...source.tags],
      agent: source.agent,
      threads: source.threads.map((t) => ({
        name: t.name,
        systemPrompt: t.systemPrompt,
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
      })),
      summaries: source.summaries.map((s) => ({
        thread: s.thread,
        content: s.content,
        coversSeq: s.coversSeq,
        tokens: s.tokens,
        model: s.model,
        promptTokens: s.promptTokens,
        completionTokens: s.completionTokens,
        updatedAt: s.updatedAt.toISOString(),
      })),
      messages: source.messages.map((m) => ({
        seq: m.seq,
        thread: m.thread,
        role: m.role,
        ...versionOf(m),
        versions: m.versions ?? [],
        toolCalls: m.toolCalls ?? [],
      })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading a document back

/** What is wrong at one place of an imported document. */
export interface ExportProblem {
  /** JSONPath of the offending value, e.g. `$.conversation.messages[3].role`. */
  readonly path: string;
  readonly message: string;
}

/** An import document that is foreign, of another version, or malformed; lists the first problems. */
export class ImportRejectedError extends ConversationError {
  readonly code = 'import_rejected';
  constructor(
    readonly problems: readonly ExportProblem[],
    readonly total: number,
  ) {
    const shown = problems.slice(0, 3).map((p) => `${p.path} ${p.message}`);
    const rest = total - shown.length;
    super(`Not an importable conversation export: ${shown.join('; ')}${rest > 0 ? ` (and ${rest} more problem${rest === 1 ? '' : 's'})` : ''}`);
  }
}

/** A conversation ready to be stored: validated, normalized, `seq` renumbered 1..n. */
export interface ConversationImport {
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
  readonly errorStatus: number | null;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly versions: MessageVersion[] | null;
  readonly toolCalls: ToolCallRecord[] | null;
}


/**
 * Checks a conversation export and turns it into what an import stores. A document of another
 * format or version is refused with that one problem; otherwise every problem found is
 * counted, and the first MAX_LISTED_PROBLEMS are listed with their JSON paths.
 */
export function parseConversationExport(input: unknown, limits: { readonly maxMessageChars: number }, now = new Date()): ConversationImport {
  const check = new Checker();
  const doc = check.object(input, '$');
  if (!doc) throw check.rejection();
  if (doc.format !== CONVERSATION_EXPORT_FORMAT) {
    check.add(
      '$.format',
      doc.format === ACCOUNT_EXPORT_FORMAT
        ? `is "${ACCOUNT_EXPORT_FORMAT}" (a whole account): import its conversations one at a time, each item of "conversations" is a conversation export`
        : `must be "${CONVERSATION_EXPORT_FORMAT}" (this is not a conversation export of this service)`,
    );
    throw check.rejection();
  }
  if (doc.version !== EXPORT_VERSION) {
    check.add(
      '$.version',
      Number.isInteger(doc.version) && (doc.version as number) > EXPORT_VERSION
        ? `${String(doc.version)} is newer than this server reads (${EXPORT_VERSION})`
        : `must be ${EXPORT_VERSION}`,
    );
    throw check.rejection();
  }
  check.optionalDate(doc, 'exportedAt', '$');
  const c = check.object(doc.conversation, '$.conversation');
  if (!c) throw check.rejection();
  const at = '$.conversation';

  const rawTitle = check.string(c, 'title', at, { max: MAX_TITLE_CHARS });
  const createdAt = check.date(c, 'createdAt', at);
  check.optionalDate(c, 'updatedAt', at);
  let state: ConversationState = {};
  if (c.state !== undefined) {
    try {
      state = validState(c.state);
    } catch (error) {
      // Serializing a state nested thousands deep overflows the stack: it is no state either.
      if (error instanceof RangeError) check.add(`${at}.state`, 'is nested too deeply');
      else if (error instanceof InvalidInputError) check.add(`${at}.state`, error.message.replace(/^state /, ''));
      else throw error;
    }
  }
  const archived = check.optionalBoolean(c, 'archived', at) ?? false;
  const pinned = check.optionalBoolean(c, 'pinned', at) ?? false;
  const tags = parseTags(check, c, at);
  if (c.agent !== undefined && c.agent !== null) {
    const agent = check.object(c.agent, `${at}.agent`);
    if (agent) check.string(agent, 'name', `${at}.agent`, { max: 100 });
  }

  const messages = parseMessages(check, c, at, limits.maxMessageChars);
  const threads = parseThreads(check, c, at, messages, createdAt ?? now);
  const summaries = parseSummaries(check, c, at, messages.renumber, now);

  if (check.total > 0 || rawTitle === undefined || createdAt === undefined) throw check.rejection();
  return { title: titleFromMessage(rawTitle), createdAt, state, archived, pinned, tags, threads, summaries, messages: messages.list };
}

function parseTags(check: Checker, c: Record<string, unknown>, at: string): string[] {
  const raw = check.optionalArray(c, 'tags', at, MAX_TAGS);
  if (!raw) return [];
  const tags: string[] = [];
  raw.forEach((tag, i) => {
    const path = `${at}.tags[${i}]`;
    if (typeof tag !== 'string') return check.add(path, 'must be a string');
    if (!tag.trim()) return check.add(path, 'must not be empty');
    if (tag.trim().length > MAX_TAG_CHARS) return check.add(path, `is ${tag.trim().length} characters long; the limit is ${MAX_TAG_CHARS}`);
    tags.push(tag);
  });
  return normalizeTags(tags);
}

function parseMessages(
  check: Checker,
  c: Record<string, unknown>,
  at: string,
  maxMessageChars: number,
): { list: ImportedMessage[]; renumber: (oldSeq: number) => number } {
  const raw = check.array(c, 'messages', at) ?? [];
  const list: ImportedMessage[] = [];
  const oldSeqs: number[] = [];
  let previousSeq = 0;
  raw.forEach((item, i) => {
    const path = `${at}.messages[${i}]`;
    const m = check.object(item, path);
    if (!m) return;
    const seq = check.integer(m, 'seq', path, 1, MAX_INT);
    if (seq !== undefined) {
      if (seq <= previousSeq) check.add(`${path}.seq`, `must be greater than the seq before it (${previousSeq}): messages are listed in seq order`);
      previousSeq = Math.max(previousSeq, seq);
    }
    const thread = check.threadName(m, 'thread', path);
    const role = check.oneOf(m, 'role', path, IMPORT_ROLES);
    const status = check.oneOf(m, 'status', path, ['streaming', ...VERSION_STATUSES] as const);
    const limit = role === 'assistant' ? { max: MAX_REPLY_CHARS, name: '' } : { max: maxMessageChars, name: ' (MAX_MESSAGE_CHARS)' };
    const content = check.string(m, 'content', path, { max: limit.max, limitName: limit.name });
    if (role === 'user') {
      if (content !== undefined && !content.trim()) check.add(`${path}.content`, 'must not be empty for a user message');
      if (status !== undefined && status !== 'complete') check.add(`${path}.status`, 'must be "complete" for a user message');
    }
    const model = check.nullableString(m, 'model', path, MAX_MODEL_CHARS);
    const promptTokens = check.nullableInteger(m, 'promptTokens', path);
    const completionTokens = check.nullableInteger(m, 'completionTokens', path);
    const error = check.messageError(m.error, `${path}.error`);
    const createdAt = check.date(m, 'createdAt', path);
    const versions = parseVersions(check, m, path);
    const toolCalls = parseToolCalls(check, m, path);
    if (seq === undefined || thread === undefined || role === undefined || status === undefined || content === undefined || createdAt === undefined) return;
    if (model === undefined || promptTokens === undefined || completionTokens === undefined || error === undefined || !versions || !toolCalls) return;
    const streaming = status === 'streaming';
    // A failed reply keeps why it failed, a truncated one why it was cut.
    const keepsError = status === 'failed' || status === 'truncated';
    const storedError = streaming ? { statusCode: EXPORTED_WHILE_STREAMING.status, message: EXPORTED_WHILE_STREAMING.message } : keepsError ? error : null;
    oldSeqs.push(seq);
    list.push({
      seq: list.length + 1,
      thread,
      role,
      content,
      status: streaming ? 'failed' : status,
      model,
      promptTokens,
      completionTokens,
      errorStatus: storedError?.statusCode ?? null,
      errorMessage: storedError?.message ?? null,
      createdAt,
      versions: versions.length ? versions : null,
      toolCalls: toolCalls.length ? toolCalls : null,
    });
  });
  // The new seq of the last message at or before an old one (0: none), for what summaries cover.
  const renumber = (oldSeq: number): number => {
    let n = 0;
    while (n < oldSeqs.length && oldSeqs[n] <= oldSeq) n++;
    return n;
  };
  return { list, renumber };
}

function parseVersions(check: Checker, m: Record<string, unknown>, path: string): MessageVersion[] | undefined {
  if (m.versions === undefined || m.versions === null) return [];
  const raw = check.array(m, 'versions', path);
  if (raw === undefined) return undefined;
  const versions: MessageVersion[] = [];
  let ok = true;
  raw.forEach((item, i) => {
    const at = `${path}.versions[${i}]`;
    const v = check.object(item, at);
    if (!v) return void (ok = false);
    const content = check.string(v, 'content', at, { max: MAX_REPLY_CHARS });
    const status = check.oneOf(v, 'status', at, VERSION_STATUSES);
    const model = check.nullableString(v, 'model', at, MAX_MODEL_CHARS);
    const promptTokens = check.nullableInteger(v, 'promptTokens', at);
    const completionTokens = check.nullableInteger(v, 'completionTokens', at);
    const error = check.messageError(v.error, `${at}.error`);
    const createdAt = check.date(v, 'createdAt', at);
    if (content === undefined || status === undefined || model === undefined || promptTokens === undefined || completionTokens === undefined) return void (ok = false);
    if (error === undefined || createdAt === undefined) return void (ok = false);
    versions.push({ content, status, model, promptTokens, completionTokens, error, createdAt: createdAt.toISOString() });
  });
  return ok ? versions : undefined;
}

function parseToolCalls(check: Checker, m: Record<string, unknown>, path: string): ToolCallRecord[] | undefined {
  if (m.toolCalls === undefined || m.toolCalls === null) return [];
  const raw = check.array(m, 'toolCalls', path);
  if (raw === undefined) return undefined;
  const calls: ToolCallRecord[] = [];
  let ok = true;
  raw.forEach((item, i) => {
    const at = `${path}.toolCalls[${i}]`;
    const t = check.object(item, at);
    if (!t) return void (ok = false);
    const name = check.string(t, 'name', at, { max: MAX_MODEL_CHARS, nonEmpty: true });
    const args = check.string(t, 'arguments', at, { max: MAX_REPLY_CHARS });
    const result = check.string(t, 'result', at, { max: MAX_REPLY_CHARS });
    if (name === undefined || args === undefined || result === undefined) return void (ok = false);
    calls.push({ name, arguments: args, result });
  });
  return ok ? calls : undefined;
}

function parseThreads(
  check: Checker,
  c: Record<string, unknown>,
  at: string,
  messages: { list: readonly ImportedMessage[] },
  defaultTime: Date,
): ConversationImport['threads'] {
  const raw = check.optionalArray(c, 'threads', at) ?? [];
  const threads: Array<{ name: string; systemPrompt: string | null; createdAt: Date; updatedAt: Date }> = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const path = `${at}.threads[${i}]`;
    const t = check.object(item, path);
    if (!t) return;
    const name = check.threadName(t, 'name', path);
    const systemPrompt = check.nullableString(t, 'systemPrompt', path, MAX_SYSTEM_PROMPT_CHARS);
    const createdAt = check.optionalDate(t, 'createdAt', path);
    const updatedAt = check.optionalDate(t, 'updatedAt', path);
    if (name === undefined) return;
    if (seen.has(name)) return check.add(`${path}.name`, `"${name}" is listed twice`);
    seen.add(name);
    if (systemPrompt === undefined) return;
    threads.push({ name, systemPrompt, createdAt: createdAt ?? defaultTime, updatedAt: updatedAt ?? createdAt ?? defaultTime });
  });
  // A thread that has messages but is not listed is created without a prompt, as a turn would.
  for (const m of messages.list) {
    if (seen.has(m.thread)) continue;
    seen.add(m.thread);
    threads.push({ name: m.thread, systemPrompt: null, createdAt: m.createdAt, updatedAt: m.createdAt });
  }
  return threads;
}

function parseSummaries(
  check: Checker,
  c: Record<string, unknown>,
  at: string,
  renumber: (oldSeq: number) => number,
  now: Date,
): ConversationImport['summaries'] {
  const raw = check.optionalArray(c, 'summaries', at) ?? [];
  const summaries: Array<ConversationImport['summaries'][number]> = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const path = `${at}.summaries[${i}]`;
    const s = check.object(item, path);
    if (!s) return;
    const thread = check.threadName(s, 'thread', path);
    const content = check.string(s, 'content', path, { max: MAX_REPLY_CHARS });
    const coversSeq = check.integer(s, 'coversSeq', path, 1, MAX_INT);
    const tokens = check.integer(s, 'tokens', path, 0, MAX_INT);
    const model = check.string(s, 'model', path, { max: MAX_MODEL_CHARS, nonEmpty: true });
    const promptTokens = s.promptTokens === undefined ? 0 : check.integer(s, 'promptTokens', path, 0, MAX_INT);
    const completionTokens = s.completionTokens === undefined ? 0 : check.integer(s, 'completionTokens', path, 0, MAX_INT);
    const updatedAt = check.optionalDate(s, 'updatedAt', path);
    if (thread === undefined) return;
    if (seen.has(thread)) return check.add(`${path}.thread`, `"${thread}" has a summary already`);
    seen.add(thread);
    if (content === undefined || coversSeq === undefined || tokens === undefined) return;
    if (model === undefined || promptTokens === undefined || completionTokens === undefined) return;
    const covers = renumber(coversSeq);
    // A summary of nothing that is imported is dropped; the model folds the history again.
    if (covers > 0) summaries.push({ thread, content, coversSeq: covers, tokens, model, promptTokens, completionTokens, updatedAt: updatedAt ?? now });
  });
  return summaries;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Collects problems with their paths; every reader returns undefined for a value it refused. */
class Checker {
  readonly problems: ExportProblem[] = [];
  total = 0;

  add(path: string, message: string): void {
    this.total++;
    if (this.problems.length < MAX_LISTED_PROBLEMS) this.problems.push({ path, message });
  }

  rejection(): ImportRejectedError {
    return new ImportRejectedError(this.problems, this.total);
  }

  object(value: unknown, path: string): Record<string, unknown> | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    this.add(path, value === undefined ? 'is missing (a JSON object)' : 'must be a JSON object');
    return undefined;
  }

  string(
    o: Record<string, unknown>,
    key: string,
    at: string,
    rules: { max: number; nonEmpty?: boolean; limitName?: string },
  ): string | undefined {
    const value = o[key];
    const path = `${at}.${key}`;
    if (typeof value !== 'string') return void this.add(path, value === undefined ? 'is missing (a string)' : 'must be a string');
    if (value.length > rules.max) {
      return void this.add(path, `is ${value.length} characters long; the limit is ${rules.max}${rules.limitName ?? ''}`);
    }
    if (rules.nonEmpty && !value) return void this.add(path, 'must not be empty');
    // PostgreSQL text cannot hold NUL (the HTTP surface refuses it already, in any JSON body).
    if (value.includes('\u0000')) return void this.add(path, 'must not contain NUL characters');
    return value;
  }

  /** A string or null; absent counts as null. */
  nullableString(o: Record<string, unknown>, key: string, at: string, max: number): string | null | undefined {
    if (o[key] === undefined || o[key] === null) return null;
    return this.string(o, key, at, { max });
  }

  integer(o: Record<string, unknown>, key: string, at: string, min: number, max: number): number | undefined {
    const value = o[key];
    const path = `${at}.${key}`;
    if (value === undefined) return void this.add(path, 'is missing (an integer)');
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      return void this.add(path, `must be an integer from ${min} to ${max}`);
    }
    return value;
  }

  /** A token count or null; absent counts as null. */
  nullableInteger(o: Record<string, unknown>, key: string, at: string): number | null | undefined {
    if (o[key] === undefined || o[key] === null) return null;
    return this.integer(o, key, at, 0, MAX_INT);
  }

  optionalBoolean(o: Record<string, unknown>, key: string, at: string): boolean | undefined {
    const value = o[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') return void this.add(`${at}.${key}`, 'must be true or false');
    return value;
  }

  oneOf<T extends string>(o: Record<string, unknown>, key: string, at: string, allowed: readonly T[]): T | undefined {
    const value = o[key];
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.add(`${at}.${key}`, `must be one of: ${allowed.join(', ')}`);
    return undefined;
  }

  threadName(o: Record<string, unknown>, key: string, at: string): string | undefined {
    const value = o[key];
    if (typeof value === 'string' && THREAD_NAME.test(value)) return value;
    this.add(`${at}.${key}`, 'must be a thread name: 1-64 characters of a-z, 0-9, "_" and "-"');
    return undefined;
  }

  date(o: Record<string, unknown>, key: string, at: string): Date | undefined {
    const value = o[key];
    const date = typeof value === 'string' && ISO_DATE_TIME.test(value) ? new Date(value) : undefined;
    if (date && !Number.isNaN(date.getTime())) return date;
    this.add(`${at}.${key}`, value === undefined ? 'is missing (an ISO 8601 date-time)' : 'must be an ISO 8601 date-time, e.g. 2026-11-30T05:55:56.814Z');
    return undefined;
  }

  optionalDate(o: Record<string, unknown>, key: string, at: string): Date | undefined {
    return o[key] === undefined ? undefined : this.date(o, key, at);
  }

  array(o: Record<string, unknown>, key: string, at: string, maxItems?: number): unknown[] | undefined {
    const value = o[key];
    const path = `${at}.${key}`;
    if (!Array.isArray(value)) return void this.add(path, value === undefined ? 'is missing (an array)' : 'must be an array');
    if (maxItems !== undefined && value.length > maxItems) return void this.add(path, `has ${value.length} items; the limit is ${maxItems}`);
    return value;
  }

  optionalArray(o: Record<string, unknown>, key: string, at: string, maxItems?: number): unknown[] | undefined {
    return o[key] === undefined ? undefined : this.array(o, key, at, maxItems);
  }

  /** `{ statusCode, message }` or null (absent counts as null); undefined when malformed. */
  messageError(value: unknown, path: string): { statusCode: number; message: string } | null | undefined {
    if (value === undefined || value === null) return null;
    const e = this.object(value, path);
    if (!e) return undefined;
    const statusCode = this.integer(e, 'statusCode', path, 100, 599);
    const message = this.string(e, 'message', path, { max: MAX_ERROR_CHARS });
    return statusCode === undefined || message === undefined ? undefined : { statusCode, message };
  }
}
