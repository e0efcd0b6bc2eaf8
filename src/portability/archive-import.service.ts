import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { DomainError } from '../common/domain-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import { LimitReachedError } from '../conversations/conversation.errors.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { MAX_EXPORTED_MEMORIES } from '../memory/memory.service.js';
import { ArchiveError, ArchiveTooLargeError } from './archives/archive.errors.js';
import { archiveRows, importedMessageId } from './archives/archive-rows.js';
import type { ArchiveConversation, DroppedParts } from './archives/archive.types.js';
import { isObject } from './archives/archive-values.js';
import { EventLoopTurns } from './archives/event-loop-turns.js';
import { openUpload } from './archives/open-upload.js';
import type { OwnExportPart } from './archives/read-own-export.js';
import {
  type ArchiveImportReport,
  emptyReport,
  type ImportRequested,
  NOTHING_BUT_CONVERSATIONS,
  reportImported,
  reportSkipped,
} from './import-report.js';
import { MAX_REPLY_CHARS, MAX_SYSTEM_PROMPT_CHARS } from './export-document.js';
import { parseConversationExport } from './export-parse.js';
import { PortabilityService } from './portability.service.js';
import { AccountPartsImport } from './account-parts-import.js';

export type { ArchiveImportReport } from './import-report.js';

interface ImportArchiveOptions {
  dryRun: boolean;
  /** The largest upload, compressed if it is a ZIP. */
  maxBytes: number;
  /** Declared as application/zip: refused if it is not one (a ZIP is recognized by its first bytes anyway). */
  declaredZip?: boolean;
  /** What to take from the file besides its conversations; nothing by default. */
  requested?: ImportRequested;
}

/**
 * Archives of other tools (and our own account export) into conversations of the actor. The
 * file is read as a stream, one conversation at a time; each is stored in its own short
 * transaction, so a skipped one leaves nothing behind and the database is never held for the
 * whole file. Quotas apply per conversation: past MAX_CONVERSATIONS_PER_ACTOR the rest are
 * skipped with that reason. A dry run reads and checks everything and stores nothing.
 *
 * A file's memories and agents change what the model is told in the caller's other chats: they
 * are taken only when the request asks for them (`requested`), and listed in every report.
 */
@Injectable()
export class ArchiveImportService {
  constructor(
    private readonly db: DatabaseService,
    private readonly whole: WholeConversationsRepository,
    private readonly limits: ConversationLimits,
    private readonly portability: PortabilityService,
    private readonly accountParts: AccountPartsImport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Throws an ArchiveError when the file as a whole is wrong (then nothing was stored) or goes
   * wrong part way (its `imported` lists what was stored before that point).
   */
  async importArchive(
    actor: Actor,
    body: AsyncIterable<Buffer | string>,
    options: ImportArchiveOptions,
  ): Promise<ArchiveImportReport> {
    const upload = await openUpload(bounded(body, options.maxBytes), {
      declaredZip: options.declaredZip ?? false,
      maxUnzippedBytes: this.config.importUnzippedLimitBytes,
      limits: {
        maxMemories:
          this.config.maxMemoriesPerActor > 0
            ? Math.min(this.config.maxMemoriesPerActor, MAX_EXPORTED_MEMORIES)
            : MAX_EXPORTED_MEMORIES,
      },
      turns: new EventLoopTurns(),
    });
    const { opened } = upload;
    const report = emptyReport(
      opened.format,
      options.dryRun,
      upload.entry,
      options.requested ?? NOTHING_BUT_CONVERSATIONS,
    );
    try {
      const room = await this.roomLeft(actor, options.dryRun);
      if (opened.format === 'chat-memory') {
        await this.importOwnExport(actor, opened.parts, report, room);
      } else {
        for await (const entry of opened.entries) {
          if (entry.kind === 'skipped') reportSkipped(report, entry.skipped);
          else await this.importOne(actor, entry.index, entry.conversation, report, room);
        }
      }
      await upload.finish();
      return report;
    } catch (error) {
      await upload.close();
      if (error instanceof ArchiveError)
        error.imported = report.imported.flatMap((c) =>
          c.id ? [{ id: c.id, sourceId: c.sourceId, title: c.title }] : [],
        );
      throw error;
    }
  }

  private async importOne(
    actor: Actor,
    index: number,
    conversation: ArchiveConversation,
    report: ArchiveImportReport,
    room: Room,
  ): Promise<void> {
    const skip = (reason: string) =>
      reportSkipped(report, { index, sourceId: conversation.sourceId, title: conversation.title, reason });
    const source = `${report.format}:${conversation.sourceId}`;
    const held = await this.heldAlready(actor, source);
    if (held) {
      const added = await this.appendNew(actor, held.id, conversation, report.dryRun);
      if (typeof added === 'string') return void skip(added);
      if (added === null)
        return void reportSkipped(report, {
          index,
          sourceId: conversation.sourceId,
          title: conversation.title,
          ...held,
        });
      reportImported(report, {
        id: report.dryRun ? null : held.id,
        sourceId: conversation.sourceId,
        title: held.heldTitle,
        messages: added.messages,
        branches: added.branches,
        appendedTo: held.id,
      });
      return void addDropped(report.dropped, conversation);
    }
    const problem = this.problemOf(conversation);
    if (problem) return void skip(problem);
    if (room.full) return void skip(room.full);
    const rows = archiveRows(conversation, actor.id, new Date());
    if (!report.dryRun) {
      try {
        await this.db.transaction(async (em) => {
          await this.limits.assertRoomForConversation(em, actor);
          await this.whole.insertConversation(em, { ...rows.conversation, importSource: source });
          await this.whole.insertThreads(em, actor.id, [rows.thread]);
          await this.whole.insertMessages(em, actor.id, rows.messages);
        });
      } catch (error) {
        // The same file imported twice at once: the unique index let one of them in.
        const raced = await this.heldAlready(actor, source);
        if (raced)
          return void reportSkipped(report, {
            index,
            sourceId: conversation.sourceId,
            title: conversation.title,
            ...raced,
          });
        if (!(error instanceof LimitReachedError)) throw error;
        room.full = error.message;
        return void skip(error.message);
      }
    } else if (room.left !== null && --room.left < 0) {
      room.full = quotaMessage(this.config.maxConversationsPerActor);
      return void skip(room.full);
    }
    reportImported(report, {
      id: report.dryRun ? null : rows.conversation.id,
      sourceId: conversation.sourceId,
      title: rows.conversation.title,
      messages: rows.messages.length,
      branches: conversation.branchPoints,
    });
    addDropped(report.dropped, conversation);
  }

  /**
   * The skip of a conversation the actor holds already: imported before from `source`, or (a file
   * of our own format) the actor's own conversation `ownId`. Null when it is new here.
   */
  private async heldAlready(
    actor: Actor,
    source: string,
    ownId?: string,
  ): Promise<{ id: string; heldTitle: string; reason: string; code: 'already_imported' } | null> {
    const found = await this.db.read((em) => this.whole.alreadyImported(em, actor.id, [source], ownId ? [ownId] : []));
    const held = found.get(source) ?? (ownId ? found.get(ownId) : undefined);
    if (!held) return null;
    return {
      id: held.id,
      heldTitle: held.title,
      reason: `already imported: conversation ${held.id} holds it (delete that one to import it again)`,
      code: 'already_imported',
    };
  }

  /**
   * The messages of the file's conversation that its earlier import (conversation `conversationId`)
   * does not hold, told apart by their ids in the file (importedMessageId), added to it: each under
   * its parent, on the active path when they continue the conversation's active leaf along the
   * file's active path, else as a branch beside it. Null when there is nothing new (or the
   * conversation holds none of the file's messages: it cannot be told what is new); a string is why
   * they are not added.
   */
  private async appendNew(
    actor: Actor,
    conversationId: string,
    conversation: ArchiveConversation,
    dryRun: boolean,
  ): Promise<{ messages: number; branches: number } | string | null> {
    const importedAt = new Date();
    const rows = archiveRows(conversation, actor.id, importedAt, conversationId);
    const work = async (em: EntityManager) => {
      const target = await this.whole.importTarget(
        em,
        actor.id,
        conversationId,
        rows.messages.map((m) => m.id),
        !dryRun,
      );
      if (!target || target.held.size === 0) return null;
      const fresh = rows.messages.filter((m) => !target.held.has(m.id));
      if (fresh.length === 0) return null;
      if (target.streaming)
        return 'new messages, not added: a reply is being generated in the conversation; import again once it is done';
      const tooMany = this.limits.messagesOverLimit(target.messageCount + fresh.length);
      if (tooMany) return `${fresh.length} new messages would make ${tooMany}`;
      const problem = this.problemOf({
        ...conversation,
        messages: conversation.messages.filter((m) => !target.held.has(importedMessageId(conversationId, m.id))),
      });
      if (problem) return problem;
      // The file's active path, from the root: its new part stays on our active path only where it goes on from our leaf.
      const byId = new Map(rows.messages.map((m) => [m.id, m] as const));
      const path: string[] = [];
      for (
        let at = rows.messages.find((m) => m.onPath && !rows.messages.some((c) => c.parentId === m.id && c.onPath));
        at;
        at = at.parentId ? byId.get(at.parentId) : undefined
      )
        path.unshift(at.id);
      const firstNew = path.findIndex((id) => !target.held.has(id));
      const continues = firstNew > 0 && path[firstNew - 1] === target.activeLeaf;
      const onPath = new Set(continues ? path.slice(firstNew) : []);
      const added = fresh.map((m, i) => ({ ...m, seq: target.lastSeq + i + 1, onPath: onPath.has(m.id) }));
      const children = new Map<string, number>();
      for (const m of added) if (m.parentId) children.set(m.parentId, (children.get(m.parentId) ?? 0) + 1);
      const branches = [...children.values()].filter((n) => n > 1).length;
      if (!dryRun) {
        await this.whole.insertMessages(em, actor.id, added);
        await this.whole.advanceImported(
          em,
          actor.id,
          conversationId,
          target.lastSeq + added.length,
          rows.conversation.updatedAt,
        );
      }
      return { messages: added.length, branches };
    };
    return dryRun ? this.db.read(work) : this.db.transaction(work);
  }

  /** Why a conversation that the reader accepted does not fit this service's bounds, or null. */
  private problemOf(conversation: ArchiveConversation): string | null {
    const tooMany = this.limits.messagesOverLimit(conversation.messages.length);
    if (tooMany) return tooMany;
    // The bounds of an export's import: a question as sent to /api/chat, a reply as the model may write one.
    const maxChars = this.config.maxMessageChars;
    for (const m of conversation.messages) {
      const max = m.role === 'user' ? maxChars : MAX_REPLY_CHARS;
      if (m.content.length > max)
        return `message ${m.id} has ${m.content.length} characters; the limit is ${max}${m.role === 'user' ? ' (MAX_MESSAGE_CHARS)' : ' for a reply'}`;
    }
    if (conversation.systemPrompt !== null && conversation.systemPrompt.length > MAX_SYSTEM_PROMPT_CHARS) {
      return `the system prompt has ${conversation.systemPrompt.length} characters; the limit is ${MAX_SYSTEM_PROMPT_CHARS}`;
    }
    return null;
  }

  /**
   * Our own export, a part at a time: its agents first (see planAgents), then each conversation
   * through the conversation importer, linked to the caller's agent that stands for the one it had
   * in the file, then its memories.
   */
  private async importOwnExport(
    actor: Actor,
    parts: AsyncGenerator<OwnExportPart>,
    report: ArchiveImportReport,
    room: Room,
  ): Promise<void> {
    let linked = new Map<string, string>();
    for await (const part of parts) {
      if (part.kind === 'agents')
        linked = await this.accountParts.importAgents(actor, part.agents, part.notRead, report);
      else if (part.kind === 'memories')
        await this.accountParts.importMemories(actor, part.memories, part.notRead, report);
      else if (part.kind === 'skipped') reportSkipped(report, part.skipped);
      else await this.importOwnConversation(actor, part.index, part.document, linked, report, room);
    }
  }

  private async importOwnConversation(
    actor: Actor,
    index: number,
    doc: unknown,
    linked: ReadonlyMap<string, string>,
    report: ArchiveImportReport,
    room: Room,
  ): Promise<void> {
    const named = nameOf(doc);
    const skip = (reason: string) => reportSkipped(report, { index, ...named, reason });
    // Our own export names each conversation by its id here: held already where it was exported, or imported before.
    const source = named.sourceId ? `chat-memory:${named.sourceId}` : null;
    const held = source ? await this.heldAlready(actor, source, named.sourceId ?? undefined) : null;
    if (held) return reportSkipped(report, { index, ...named, ...held });
    if (room.full) return skip(room.full);
    let parsed: Awaited<ReturnType<typeof parseConversationExport>>;
    try {
      parsed = await parseConversationExport(doc, { maxMessageChars: this.config.maxMessageChars });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return skip(error.message);
    }
    const tooMany = this.limits.messagesOverLimit(parsed.messages.length);
    if (tooMany) return skip(tooMany);
    let id: string | null = null;
    if (report.dryRun) {
      if (room.left !== null && --room.left < 0) {
        room.full = quotaMessage(this.config.maxConversationsPerActor);
        return skip(room.full);
      }
    } else {
      try {
        id = (await this.portability.importConversation(actor, doc, linkedAgent(doc, linked), source ?? undefined)).id;
      } catch (error) {
        const raced = source ? await this.heldAlready(actor, source) : null;
        if (raced) return reportSkipped(report, { index, ...named, ...raced });
        if (!(error instanceof DomainError)) throw error;
        if (error instanceof LimitReachedError && /MAX_CONVERSATIONS_PER_ACTOR/.test(error.message))
          room.full = error.message;
        return skip(error.message);
      }
    }
    const versions = parsed.messages.reduce((n, m) => n + (m.versions?.length ?? 0), 0);
    const branches = parsed.tree
      ? parsed.tree.branchPoints
      : parsed.messages.filter((m) => (m.versions?.length ?? 0) > 0).length;
    reportImported(report, {
      id,
      sourceId: named.sourceId ?? '',
      title: parsed.title,
      messages: parsed.messages.length + versions,
      branches,
    });
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
  const agent =
    isObject(doc) && isObject(doc.conversation) && isObject(doc.conversation.agent) ? doc.conversation.agent : null;
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
