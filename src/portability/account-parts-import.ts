import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentLimitError } from '../agents/agent.errors.js';
import { AgentsService } from '../agents/agents.service.js';
import { DomainError } from '../common/domain-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type ImportedMemory, MemoryService } from '../memory/memory.service.js';
import { isObject } from './archives/archive-values.js';
import { listAgents, planAgents } from './account-agents.js';
import { type ArchiveImportReport, cut, MAX_LISTED_MEMORIES, MAX_REPORTED_TEXT_CHARS } from './import-report.js';

/**
 * The parts of an account export besides its conversations, its memories and agents: they change
 * what the model is told in the caller's other chats, so each is taken only when the request asks
 * for it, and listed in every report.
 */
@Injectable()
export class AccountPartsImport {
  constructor(
    private readonly agents: AgentsService,
    private readonly memories: MemoryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The memories of an account export, after its conversations: listed, and taken only when asked
   * for, all or nothing (as POST /api/memories/import takes them), or none, with the reason, when one
   * is not valid. Each is unpinned unless it is pinned in the file and pins were asked for too.
   */
  async importMemories(
    actor: Actor,
    raw: readonly unknown[],
    notRead: number,
    report: ArchiveImportReport,
  ): Promise<void> {
    if (raw.length === 0) return;
    const items = raw.filter(
      (m): m is ImportedMemory =>
        isObject(m) && typeof m.text === 'string' && (m.pinned === undefined || typeof m.pinned === 'boolean'),
    );
    const listed = items
      .slice(0, MAX_LISTED_MEMORIES)
      .map((m) => ({ text: cut(m.text, MAX_REPORTED_TEXT_CHARS), pinned: m.pinned === true }));
    const none = (reason: string) =>
      (report.memories = { imported: 0, skipped: raw.length + notRead, reason, items: listed });
    if (!report.requested.memories) return void none('not asked for: memories=true imports them');
    if (notRead > 0) return void none(`${raw.length + notRead} memories; at most ${raw.length} are taken at once`);
    if (items.length < raw.length) return void none(`${raw.length - items.length} of the memories have no text`);
    const keepPins = report.requested.pinMemories;
    const taken = items.map((m) => ({ ...m, pinned: keepPins && m.pinned === true }));
    try {
      const imported = report.dryRun ? this.memories.checkImport(taken) : await this.memories.importFor(actor, taken);
      report.memories = { imported, skipped: 0, reason: null, items: listed };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      none(error.message);
    }
  }

  /**
   * Creates (or reuses) the file's agents when asked for, unless a dry run; answers the caller's
   * agent id for each agent id of the file. Past MAX_AGENTS_PER_ACTOR the rest are skipped with
   * that reason (in a dry run too) and their conversations come without an agent.
   */
  async importAgents(
    actor: Actor,
    rawAgents: readonly unknown[],
    notRead: number,
    report: ArchiveImportReport,
  ): Promise<Map<string, string>> {
    const linked = new Map<string, string>();
    // Past the agents read, each is counted as not imported; its conversations come without an agent.
    report.agentsNotImported += notRead;
    if (rawAgents.length === 0) return linked;
    if (!report.requested.agents) {
      report.agents.push(...listAgents(rawAgents, 'not asked for: agents=true imports it'));
      report.agentsNotImported += rawAgents.length;
      return linked;
    }
    const existing = await this.agents.list(actor);
    const max = this.config.maxAgentsPerActor;
    // Room counted once for a dry run; a real import learns it from each creation.
    let room = max > 0 ? max - existing.length : Infinity;
    let full: string | null = null;
    for (const planned of planAgents(rawAgents, existing)) {
      report.agents.push(planned.report);
      if (planned.report.outcome !== 'skipped' && !planned.reuse) {
        if (report.dryRun && room-- <= 0) full = new AgentLimitError(max).message;
        if (!full && !report.dryRun) {
          try {
            planned.report.id = (await this.agents.create(actor, planned.fields!)).id;
          } catch (error) {
            if (!(error instanceof AgentLimitError)) throw error;
            full = error.message;
          }
        }
        if (full) Object.assign(planned.report, { outcome: 'skipped', id: null, reason: full });
      }
      if (planned.report.outcome === 'skipped') {
        report.agentsNotImported++;
        continue;
      }
      if (planned.sourceId && planned.report.id) linked.set(planned.sourceId, planned.report.id);
    }
    return linked;
  }
}
