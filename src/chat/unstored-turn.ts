import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import type { ContextMessage } from '../context/context-sources.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import type { ItemDraft } from '../conversations/conversation-items.service.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import { DatabaseService } from '../database/database.service.js';
import { assertRoundsKept } from './function-rounds.js';
import { ReplyGenerator } from './reply-generator.js';
import type { ModelOptions } from './model-conversation.js';
import { TurnPlanner } from './turn-planner.js';
import type { ReplyOutcome, TurnOverride } from './turn.js';

export interface UnstoredRequest {
  readonly items: readonly ItemDraft[];
  readonly agentId?: string;
  readonly override?: TurnOverride;
  readonly options?: ModelOptions;
}

/**
 * A turn that keeps nothing (OpenAI's `store: false`): its input alone is the history, planned
 * like any turn (instructions, budget, calls kept with their outputs), and generated like any
 * reply (ReplyGenerator: bounds, tool rounds, metrics) without a row written. A model failure
 * rejects with the model's error.
 */
@Injectable()
export class UnstoredTurns {
  constructor(
    private readonly db: DatabaseService,
    private readonly planner: TurnPlanner,
    private readonly agents: AgentsService,
    private readonly generator: ReplyGenerator,
  ) {}

  async run(actor: Actor, request: UnstoredRequest, onDelta?: (text: string) => void): Promise<ReplyOutcome> {
    if (request.items.length === 0) throw new InvalidInputError('input must not be empty');
    assertRoundsKept([], request.items);
    const agent = request.agentId
      ? await this.db.read((em) => this.agents.usableIn(em, actor, request.agentId!))
      : null;
    const last = request.items[request.items.length - 1];
    const asked = last.role === 'user' ? last : null;
    const earlier = asked ? request.items.slice(0, -1) : request.items;
    const history: ContextMessage[] = earlier.map((item, i) => ({
      seq: i + 1,
      role: item.role,
      content: item.content,
      tokens: null,
      functionCalls: item.functionCalls ?? null,
      callId: item.callId ?? null,
    }));
    const recent = async (_thread: string, beforeSeq: number, limit: number, afterSeq = 0) =>
      history.filter((m) => m.seq < beforeSeq && m.seq > afterSeq).slice(-limit);
    const draft = {
      conversation: { state: {} } as Conversation,
      agent,
      thread: { name: 'main', systemPrompt: null },
      beforeSeq: history.length + 1,
      question: asked ? { content: asked.content, tokens: null } : null,
      override: request.override,
    };
    // Nothing stored: no summary, no pinned messages, no long-term memories (store: false keeps nothing and reads nothing).
    const window = async (thread: string, beforeSeq: number, limit: number) => ({
      recent: await recent(thread, beforeSeq, limit),
      pinned: [],
    });
    const plan = await this.planner.plan(draft, {
      summary: async () => null,
      window,
      recent,
      memories: async () => [],
    });
    return this.generator.runUnstored(
      { agent, model: plan.model, context: plan.context },
      { stream: onDelta !== undefined, onDelta, options: request.options },
    );
  }
}
