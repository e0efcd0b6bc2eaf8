import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Conversation } from '../conversations/conversation.entity.js';
import { MessagesRepository } from '../conversations/messages.repository.js';
import { SummariesRepository } from '../conversations/summaries.repository.js';
import type { Summary } from '../conversations/summary.entity.js';
import { TurnReadsRepository } from '../conversations/turn-reads.repository.js';
import { MemoryService } from '../memory/memory.service.js';
import type { HistoryReader } from './turn.js';

/** A turn reads at most this many pinned messages of its path (each must also fit the budget). */
const MAX_PINNED_READ = 200;

/** A conversation's stored history as a turn's plan reads it: for a turn, a regeneration, a replan, a preview, a pin. */
@Injectable()
export class TurnHistory {
  constructor(
    private readonly messageRows: MessagesRepository,
    private readonly summaries: SummariesRepository,
    private readonly reads: TurnReadsRepository,
    private readonly memories: MemoryService,
  ) {}

  /** The history in the transaction `em`. `known`: a thread's summary already read in this transaction. */
  of(
    em: EntityManager,
    conversation: Conversation,
    known?: { thread: string; summary: Summary | null },
  ): HistoryReader {
    const conversationId = conversation.id;
    return {
      summary: (thread) =>
        known?.thread === thread
          ? Promise.resolve(known.summary)
          : this.summaries.findSummary(em, conversationId, thread),
      window: (thread, beforeSeq, limit) =>
        this.reads.recentWithPinned(em, conversation, thread, beforeSeq, limit, MAX_PINNED_READ),
      recent: (thread, beforeSeq, limit, afterSeq) =>
        this.messageRows.recentHistory(em, conversation, thread, beforeSeq, limit, afterSeq),
      // The owner's memories, whoever published the agent.
      memories: (question) => this.memories.forTurnIn(em, { id: conversation.actor }, conversation.agentId, question),
    };
  }
}
