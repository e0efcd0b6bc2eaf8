import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { DomainError } from '../common/domain-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import { LimitReachedError } from '../conversations/conversation.errors.js';
import { isObject } from './archives/archive-values.js';
import type { OwnExportPart } from './archives/read-own-export.js';
import { AccountPartsImport } from './account-parts-import.js';
import { parseConversationExport } from './export-parse.js';
import { HeldImports } from './held-imports.js';
import { type ArchiveImportReport, reportImported, reportSkipped } from './import-report.js';
import { quotaMessage, type Room } from './import-room.js';
import { PortabilityService } from './portability.service.js';

/** Our own account export as an archive (ArchiveImportService): the same quota, skips and report as another tool's. */
@Injectable()
export class OwnExportImport {
  constructor(
    private readonly held: HeldImports,
    private readonly portability: PortabilityService,
    private readonly accountParts: AccountPartsImport,
    private readonly limits: ConversationLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Our own export, a part at a time: its agents first (see planAgents), then each conversation
   * through the conversation importer, linked to the caller's agent that stands for the one it had
   * in the file, then its memories.
   */
  async importParts(
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
    const held = source ? await this.held.heldAlready(actor, source, named.sourceId ?? undefined) : null;
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
        const raced = source ? await this.held.heldAlready(actor, source) : null;
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
