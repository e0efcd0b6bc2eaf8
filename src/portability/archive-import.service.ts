import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import { LimitReachedError } from '../conversations/conversation.errors.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { MAX_EXPORTED_MEMORIES } from '../memory/memory.service.js';
import { ArchiveError, ArchiveTooLargeError } from './archives/archive.errors.js';
import { archiveRows } from './archives/archive-rows.js';
import type { ArchiveConversation, DroppedParts } from './archives/archive.types.js';
import { EventLoopTurns } from './archives/event-loop-turns.js';
import { openUpload } from './archives/open-upload.js';
import { outOfBounds } from './archive-bounds.js';
import { ArchiveReimport } from './archive-reimport.js';
import { HeldImports } from './held-imports.js';
import {
  type ArchiveImportReport,
  emptyReport,
  type ImportRequested,
  NOTHING_BUT_CONVERSATIONS,
  reportImported,
  reportSkipped,
} from './import-report.js';
import { quotaMessage, type Room } from './import-room.js';
import { OwnExportImport } from './own-export-import.js';

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
    private readonly held: HeldImports,
    private readonly reimport: ArchiveReimport,
    private readonly ownExport: OwnExportImport,
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
        await this.ownExport.importParts(actor, opened.parts, report, room);
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
    const held = await this.held.heldAlready(actor, source);
    if (held) {
      const added = await this.reimport.appendNew(actor, held.id, conversation, report.dryRun);
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
    const problem = outOfBounds(conversation, this.limits, this.config.maxMessageChars);
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
        const raced = await this.held.heldAlready(actor, source);
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

  /** How many more conversations the actor may have, counted once for a dry run (a real import checks in each transaction). */
  private async roomLeft(actor: Actor, dryRun: boolean): Promise<Room> {
    const max = this.config.maxConversationsPerActor;
    if (!dryRun || max <= 0) return { left: null, full: null };
    const used = await this.db.read((em) => this.whole.conversationIdsOf(em, actor.id).then((ids) => ids.length));
    return { left: Math.max(0, max - used), full: null };
  }
}

function addDropped(total: DroppedParts, conversation: ArchiveConversation): void {
  for (const key of Object.keys(total) as Array<keyof DroppedParts>) total[key] += conversation.dropped[key];
  // Reasoning shown apart from a reply has no column to live in.
  total.reasoning += conversation.messages.filter((m) => m.reasoning).length;
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
