import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { DomainError } from '../common/domain-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import { LimitReachedError } from '../conversations/conversation.errors.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { type ImportedMemory, MemoryService } from '../memory/memory.service.js';
import { ArchiveError, ArchiveTooLargeError } from './archives/archive.errors.js';
import { archiveRows } from './archives/archive-rows.js';
import { type ArchiveConversation, type DroppedParts, noDroppedParts } from './archives/archive.types.js';
import { isObject } from './archives/archive-values.js';
import { openUpload } from './archives/open-upload.js';
import { planAgents, type ImportedAgentReport } from './account-agents.js';
import { MAX_REPLY_CHARS, MAX_SYSTEM_PROMPT_CHARS } from './export-document.js';
import { parseConversationExport } from './export-parse.js';
import { PortabilityService } from './portability.service.js';

export interface ImportedArchiveConversation {
  /** The new conversation's id; null in a dry run. */
  id: string | null;
  sourceId: string;
  title: string;
  messages: number;
  /** Messages with more than one child: where versions diverge. */
  branches: number;
}

export interface SkippedArchiveConversation {
  /** Position in the file, from 0. */
  index: number;
  sourceId: string | null;
  title: string | null;
  reason: string;
}

export interface ImportArchiveOptions {
  dryRun: boolean;
  /** The largest upload, compressed if it is a ZIP. */
  maxBytes: number;
  /** Declared as application/zip: refused if it is not one (a ZIP is recognized by its first bytes anyway). */
  declaredZip?: boolean;
}

export interface ArchiveImportReport {
  format: 'chatgpt' | 'open-webui' | 'chat-memory' | 'empty';
  dryRun: boolean;
  /** The ZIP entry that was read (e.g. conversations.json), or null when the upload was JSON. */
  zipEntry: string | null;
  imported: ImportedArchiveConversation[];
  skipped: SkippedArchiveConversation[];
  /** What the imported conversations had that is not text, counted (plus reasoning, which is not stored). */
  dropped: DroppedParts;
  /** The agents of a chat-memory account export, each created, reused or renamed (or skipped, with why). */
  agents: ImportedAgentReport[];
  /** Of those, the ones skipped (not valid): their conversations come without an agent. */
  agentsNotImported: number;
  /** The long-term memories of a chat-memory account export: how many were (or would be) taken, or why none were. */
  memories: { imported: number; skipped: number; reason: string | null };
}

/**
 * Archives of other tools (and our own account export) into conversations of the actor. The
 * file is read as a stream, one conversation at a time; each is stored in its own short
 * transaction, so a skipped one leaves nothing behind and the database is never held for the
 * whole file. Quotas apply per conversation: past MAX_CONVERSATIONS_PER_ACTOR the rest are
 * skipped with that reason. A dry run reads and checks everything and stores nothing.
 */
@Injectable()
export class ArchiveImportService {
  constructor(
    private readonly db: DatabaseService,
    private readonly whole: WholeConversationsRepository,
    private readonly limits: ConversationLimits,
    private readonly portability: PortabilityService,
    private readonly agents: AgentsService,
    private readonly memories: MemoryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Throws an ArchiveError when the file as a whole is wrong (then nothing was stored) or goes
   * wrong part way (its `imported` lists what was stored before that point).
   */
  async importArchive(actor: Actor, body: AsyncIterable<Buffer | string>, options: ImportArchiveOptions): Promise<ArchiveImportReport> {
    const upload = await openUpload(bounded(body, options.maxBytes), {
      maxDocumentBytes: options.maxBytes,
      declaredZip: options.declaredZip ?? false,
      maxUnzippedBytes: this.config.importUnzippedLimitBytes,
    });
    const { opened } = upload;
    const report: ArchiveImportReport = {
      format: opened.format,
      dryRun: options.dryRun,
      zipEntry: upload.entry,
      imported: [],
      skipped: [],
      dropped: noDroppedParts(),
      agents: [],
      agentsNotImported: 0,
      memories: { imported: 0, skipped: 0, reason: null },
    };
    try {
      const room = await this.roomLeft(actor, options.dryRun);
      if (opened.format === 'chat-memory') {
        await this.importOwnExport(actor, opened.document, report, room);
      } else {
        for await (const entry of opened.entries) {
          if (entry.kind === 'skipped') {
            const { index, sourceId, title, reason } = entry.skipped;
            report.skipped.push({ index, sourceId, title, reason });
            continue;
          }
          await this.importOne(actor, entry.index, entry.conversation, report, room);
        }
      }
      await upload.finish();
      return report;
    } catch (error) {
      await upload.close();
      if (error instanceof ArchiveError) error.imported = report.imported.flatMap((c) => (c.id ? [{ id: c.id, sourceId: c.sourceId, title: c.title }] : []));
      throw error;
    }
  }

  private async importOne(actor: Actor, index: number, conversation: ArchiveConversation, report: ArchiveImportReport, room: Room): Promise<void> {
    const skip = (reason: string) => report.skipped.push({ index, sourceId: conversation.sourceId, title: conversation.title, reason });
    const problem = this.problemOf(conversation);
    if (problem) return void skip(problem);
    if (room.full) return void skip(room.full);
    const rows = archiveRows(conversation, actor.id, new Date());
    if (!report.dryRun) {
      try {
        await this.db.transaction(async (em) => {
          await this.limits.assertRoomForConversation(em, actor);
          await this.whole.insertConversation(em, rows.conversation);
          await this.whole.insertThreads(em, actor.id, [rows.thread]);
          await this.whole.insertMessages(em, actor.id, rows.messages);
        });
      } catch (error) {
        if (!(error instanceof LimitReachedError)) throw error;
        room.full = error.message;
        return void skip(error.message);
      }
    } else if (room.left !== null && --room.left < 0) {
      room.full = quotaMessage(this.config.maxConversationsPerActor);
      return void skip(room.full);
    }
    report.imported.push({
      id: report.dryRun ? null : rows.conversation.id,
      sourceId: conversation.sourceId,
      title: rows.conversation.title,
      messages: rows.messages.length,
      branches: conversation.branchPoints,
    });
    addDropped(report.dropped, conversation);
  }

  /** Why a conversation that the reader accepted does not fit this service's bounds, or null. */
  private problemOf(conversation: ArchiveConversation): string | null {
    const maxMessages = this.config.maxMessagesPerConversation;
    if (maxMessages > 0 && conversation.messages.length > maxMessages) {
      return `${conversation.messages.length} messages; the limit is ${maxMessages} per conversation (MAX_MESSAGES_PER_CONVERSATION)`;
    }
    // The bounds of an export's import: a question as sent to /api/chat, a reply as the model may write one.
    const maxChars = this.config.maxMessageChars;
    for (const m of conversation.messages) {
      const max = m.role === 'user' ? maxChars : MAX_REPLY_CHARS;
      if (m.content.length > max) return `message ${m.id} has ${m.content.length} characters; the limit is ${max}${m.role === 'user' ? ' (MAX_MESSAGE_CHARS)' : ' for a reply'}`;
    }
    if (conversation.systemPrompt !== null && conversation.systemPrompt.length > MAX_SYSTEM_PROMPT_CHARS) {
      return `the system prompt has ${conversation.systemPrompt.length} characters; the limit is ${MAX_SYSTEM_PROMPT_CHARS}`;
    }
    return null;
  }

  /**
   * Our own account export: its agents first (see planAgents), then each conversation through the
   * conversation importer, linked to the caller's agent that stands for the one it had in the file.
   */
  private async importOwnExport(actor: Actor, document: Record<string, unknown>, report: ArchiveImportReport, room: Room): Promise<void> {
    const linked = await this.importAgents(actor, Array.isArray(document.agents) ? document.agents : [], report);
    // A single conversation's export is one conversation too.
    const docs: unknown[] = Array.isArray(document.conversations) ? document.conversations : 'conversation' in document ? [document] : [];
    for (const [index, doc] of docs.entries()) {
      const named = nameOf(doc);
      const skip = (reason: string) => report.skipped.push({ index, ...named, reason });
      if (room.full) {
        skip(room.full);
        continue;
      }
      let parsed: Awaited<ReturnType<typeof parseConversationExport>>;
      try {
        parsed = await parseConversationExport(doc, { maxMessageChars: this.config.maxMessageChars });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        skip(error.message);
        continue;
      }
      const maxMessages = this.config.maxMessagesPerConversation;
      if (maxMessages > 0 && parsed.messages.length > maxMessages) {
        skip(`${parsed.messages.length} messages; the limit is ${maxMessages} per conversation (MAX_MESSAGES_PER_CONVERSATION)`);
        continue;
      }
      let id: string | null = null;
      if (report.dryRun) {
        if (room.left !== null && --room.left < 0) {
          room.full = quotaMessage(this.config.maxConversationsPerActor);
          skip(room.full);
          continue;
        }
      } else {
        try {
          id = (await this.portability.importConversation(actor, doc, linkedAgent(doc, linked))).id;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          if (error instanceof LimitReachedError && /MAX_CONVERSATIONS_PER_ACTOR/.test(error.message)) room.full = error.message;
          skip(error.message);
          continue;
        }
      }
      const versions = parsed.messages.reduce((n, m) => n + (m.versions?.length ?? 0), 0);
      const branches = parsed.tree ? parsed.tree.branchPoints : parsed.messages.filter((m) => (m.versions?.length ?? 0) > 0).length;
      report.imported.push({ id, sourceId: named.sourceId ?? '', title: parsed.title, messages: parsed.messages.length + versions, branches });
    }
    await this.importMemories(actor, document.memories, report);
  }

  /**
   * The memories of an account export, after its conversations: taken all or nothing (as
   * POST /api/memories/import takes them), or none, with the reason, when one is not valid.
   */
  private async importMemories(actor: Actor, raw: unknown, report: ArchiveImportReport): Promise<void> {
    if (!Array.isArray(raw) || raw.length === 0) return;
    const items = raw.filter((m): m is ImportedMemory => isObject(m) && typeof m.text === 'string' && (m.pinned === undefined || typeof m.pinned === 'boolean'));
    if (items.length < raw.length) {
      report.memories = { imported: 0, skipped: raw.length, reason: `${raw.length - items.length} of the memories have no text` };
      return;
    }
    try {
      const imported = report.dryRun ? this.memories.checkImport(items) : await this.memories.importFor(actor, items);
      report.memories = { imported, skipped: 0, reason: null };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      report.memories = { imported: 0, skipped: raw.length, reason: error.message };
    }
  }

  /** Creates (or reuses) the file's agents, unless a dry run; answers the caller's agent id for each agent id of the file. */
  private async importAgents(actor: Actor, rawAgents: readonly unknown[], report: ArchiveImportReport): Promise<Map<string, string>> {
    const linked = new Map<string, string>();
    if (rawAgents.length === 0) return linked;
    for (const planned of planAgents(rawAgents, await this.agents.list(actor))) {
      report.agents.push(planned.report);
      if (planned.report.outcome === 'skipped') {
        report.agentsNotImported++;
        continue;
      }
      if (!planned.reuse && !report.dryRun) planned.report.id = (await this.agents.create(actor, planned.fields!)).id;
      if (planned.sourceId && planned.report.id) linked.set(planned.sourceId, planned.report.id);
    }
    return linked;
  }

  /** How many more conversations the actor may have, counted once for a dry run (a real import checks in each transaction). */
  private async roomLeft(actor: Actor, dryRun: boolean): Promise<Room> {
    const max = this.config.maxConversationsPerActor;
    if (!dryRun || max <= 0) return { left: null, full: null };
    const used = await this.db.read((em) => this.whole.conversationIdsOf(em, actor.id).then((ids) => ids.length));
    return { left: Math.max(0, max - used), full: null };
  }
}

/** The quota as the import sees it: conversations left (dry runs only), and the reason once it is reached. */
interface Room {
  left: number | null;
  full: string | null;
}

function quotaMessage(max: number): string {
  return `You have reached the limit of ${max} conversations (MAX_CONVERSATIONS_PER_ACTOR); delete some first`;
}

function addDropped(total: DroppedParts, conversation: ArchiveConversation): void {
  for (const key of Object.keys(total) as Array<keyof DroppedParts>) total[key] += conversation.dropped[key];
  // Reasoning shown apart from a reply has no column to live in.
  total.reasoning += conversation.messages.filter((m) => m.reasoning).length;
}

/** The caller's agent standing for the agent a conversation of the file had, if it was imported. */
function linkedAgent(doc: unknown, linked: ReadonlyMap<string, string>): string | undefined {
  const agent = isObject(doc) && isObject(doc.conversation) && isObject(doc.conversation.agent) ? doc.conversation.agent : null;
  return agent && typeof agent.id === 'string' ? linked.get(agent.id) : undefined;
}

function nameOf(doc: unknown): { sourceId: string | null; title: string | null } {
  const conversation = isObject(doc) && isObject(doc.conversation) ? doc.conversation : {};
  return {
    sourceId: typeof conversation.id === 'string' ? conversation.id : null,
    title: typeof conversation.title === 'string' ? conversation.title : null,
  };
}

/** The body, refused as ArchiveTooLargeError as soon as it goes past `maxBytes`. */
async function* bounded(body: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    seen += buffer.length;
    if (seen > maxBytes) throw new ArchiveTooLargeError(maxBytes);
    yield buffer;
  }
}
