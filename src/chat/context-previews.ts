import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { MessagesRepository } from '../conversations/messages.repository.js';
import { ownedConversation } from '../conversations/ownership.js';
import { ThreadsRepository } from '../conversations/threads.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { TurnHistory } from './turn-history.js';
import type { PlanTurn, TurnPlan } from './turn.js';

/** What the next turn of a thread would send the model, read without writing anything. */
@Injectable()
export class ContextPreviews {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly agents: AgentsService,
    private readonly history: TurnHistory,
  ) {}

  /**
   * The plan of the next turn of a thread, around the message still to come, read-only.
   * `outsideWindow` counts the replayable messages older than the window (those the summary
   * stands for, or that are forgotten).
   */
  preview(
    actor: Actor,
    conversationId: string,
    threadName: string,
    plan: PlanTurn,
  ): Promise<{ plan: TurnPlan; outsideWindow: number }> {
    return this.db.read(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, conversationId);
      const agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
      const thread = (await this.threadRows.findThread(em, conversation.id, threadName)) ?? {
        name: threadName,
        systemPrompt: null,
      };
      const beforeSeq = conversation.lastSeq + 1;
      const planned = await plan(
        { conversation, agent, thread, beforeSeq, question: null },
        this.history.of(em, conversation),
      );
      const oldest = planned.context.oldestIncludedSeq ?? beforeSeq;
      // Older than what is sent, less those that were in the window but did not fit the budget.
      const outsideWindow =
        (await this.messageRows.countReplayableBefore(em, conversation.id, threadName, oldest)) -
        planned.context.omittedForBudget;
      return { plan: planned, outsideWindow };
    });
  }
}
