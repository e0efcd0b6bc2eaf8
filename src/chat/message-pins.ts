import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { ConversationStateError, MessageNotFoundError } from '../conversations/conversation.errors.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { MessagesRepository } from '../conversations/messages.repository.js';
import { ownedConversation } from '../conversations/ownership.js';
import { ReplyRowsRepository } from '../conversations/reply-rows.repository.js';
import { ThreadsRepository } from '../conversations/threads.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { TurnHistory } from './turn-history.js';
import type { HistoryReader, PlanTurn } from './turn.js';

/** Pinned messages: every turn of their thread sends them while they are on its active path. */
@Injectable()
export class MessagePins {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly replyRows: ReplyRowsRepository,
    private readonly agents: AgentsService,
    private readonly history: TurnHistory,
  ) {}

  /**
   * Pins (or unpins) a message: while on its thread's active path, every turn sends it. Pinning
   * is refused (ContextOverBudgetError) when the thread's next turn could not fit it beside the
   * instructions and the other pinned messages; only complete user or assistant messages pin.
   */
  pin(actor: Actor, conversationId: string, messageId: string, pinned: boolean, plan: PlanTurn): Promise<void> {
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      const message = await this.messageRows.findMessage(em, conversation, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      if (pinned === message.pinned) return;
      if (pinned) {
        const replayable =
          (message.role === 'user' || message.role === 'assistant') &&
          (message.status === 'complete' || message.status === 'truncated') &&
          message.content !== '';
        if (!replayable) throw new ConversationStateError('Only a complete user or assistant message can be pinned');
        if (message.onPath) {
          const agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
          const thread = (await this.threadRows.findThread(em, conversation.id, message.thread)) ?? {
            name: message.thread,
            systemPrompt: null,
          };
          const history = this.history.of(em, conversation);
          const withIt: HistoryReader = {
            ...history,
            window: async (name, beforeSeq, limit) => {
              const read = await history.window(name, beforeSeq, limit);
              return { ...read, pinned: [...read.pinned, message].sort((a, b) => a.seq - b.seq) };
            },
            memories: () => Promise.resolve([]),
          };
          // The smallest next turn (an empty question) must still fit with it: else ContextOverBudgetError.
          await plan(
            { conversation, agent, thread, beforeSeq: conversation.lastSeq + 1, question: { content: '', tokens: 0 } },
            withIt,
          );
        }
      }
      await this.replyRows.updateMessage(em, message.id, { pinned });
    });
  }
}
