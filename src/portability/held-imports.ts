import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { DatabaseService } from '../database/database.service.js';

/** What an import finds the actor holds already, so that a file imported twice is not stored twice. */
@Injectable()
export class HeldImports {
  constructor(
    private readonly db: DatabaseService,
    private readonly whole: WholeConversationsRepository,
  ) {}

  /**
   * The skip of a conversation the actor holds already: imported before from `source`, or (a file
   * of our own format) the actor's own conversation `ownId`. Null when it is new here.
   */
  async heldAlready(
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
}
