import { Inject, Injectable } from '@nestjs/common';
import type { Agent } from '../agents/agent.entity.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ContextAssembler } from '../context/context-assembler.js';
import { ContextOverBudgetError, STRETCH_MAX, type PlannedContext } from '../context/context-planner.js';
import { LLM_PORT, type LlmPort } from '../llm/llm.port.js';
import { memoryModeOf, memoryToolsOf } from './memory-mode.js';
import { recallIsOn } from '../recall/turn-recall.js';
import type { ContextMessage, ContextRecall } from '../context/context-sources.js';
import type { HistoryReader, TurnDraft, TurnPlan } from './turn.js';

/**
 * Chat's decisions for a turn, made from what is stored: which model answers (the agent's, or
 * the default) and what it is sent (the instructions, the state, the thread's running summary
 * and the newest history that fits the budget and the window). Reads only; the store writes.
 */
@Injectable()
export class TurnPlanner {
  constructor(
    private readonly assembler: ContextAssembler,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  modelFor(agent: Pick<Agent, 'model'> | null): string {
    return agent?.model ?? this.llm.defaultModel;
  }

  encodingName(model: string): string {
    return this.assembler.encodingName(model);
  }

  /** A plan over `history`; a question that cannot fit is refused (ContextOverBudgetError) before anything is written. */
  readonly plan = async (draft: TurnDraft, history: HistoryReader): Promise<TurnPlan> => {
    const { conversation, agent, thread, question } = draft;
    // This turn's own model, then the one chosen for the conversation, then the agent's or the default.
    const model = draft.override?.model ?? conversation.model ?? this.modelFor(agent);
    const questionTokens = question ? (question.tokens ?? this.assembler.count(question.content, model)) : 0;
    const summary = await history.summary(thread.name);
    const window = this.config.historyWindow;
    const read = await history.window(thread.name, draft.beforeSeq, window);
    let messages = read.recent;
    // A full window may have older messages behind it that no fold has reached yet: they are
    // sent too while they fit (the planner's stretch), so none falls between window and summary.
    if (this.config.summaryMode === 'rolling' && messages.length === window) {
      const older = await history.recent(
        thread.name,
        messages[0]?.seq ?? draft.beforeSeq,
        STRETCH_MAX,
        summary?.coversSeq ?? 0,
      );
      messages = [...older, ...messages];
    }
    const newMessage = question ? { content: question.content, tokens: questionTokens } : null;
    const instructions = draft.override?.instructions ?? null;
    const mode = memoryModeOf(this.config.memoryMode, agent, conversation);
    const pinned = read.pinned;
    // A preview has no question to match: it shows the pinned memories only.
    const memories =
      mode === 'off' || this.config.memoryTokenBudget === 0 ? null : await history.memories(question?.content ?? null);
    const memoryIdsShown = memoryToolsOf(mode, agent).length > 0;
    // Recall is long-term memory too: off with it (the agent's memoryMode, a temporary chat), or by RECALL_MODE.
    const recallOn = mode !== 'off' && recallIsOn(this.config);
    const recalled = recallOn
      ? notInContext(draft.recalled ?? [], conversation.id, messages, pinned, draft.beforeSeq)
      : null;
    const context = this.assembler.assemble({
      model,
      agent,
      thread,
      state: conversation.state,
      summary,
      history: messages,
      newMessage,
      instructions,
      pinned,
      memories,
      memoryIdsShown,
      recalled,
    });
    if (draft.override?.truncation === 'disabled') await refuseIfHistoryLeftOut(context, draft, history);
    return { model, context, questionTokens, summaryCoversSeq: summary?.coversSeq ?? null };
  };
}

/** With truncation disabled, a turn whose context leaves out any replayable message before the oldest it sends is refused. */
async function refuseIfHistoryLeftOut(
  context: PlannedContext,
  draft: TurnDraft,
  history: HistoryReader,
): Promise<void> {
  const [left] = await history.recent(draft.thread.name, context.oldestIncludedSeq ?? draft.beforeSeq, 1);
  if (!left) return;
  throw new ContextOverBudgetError(
    `The conversation does not fit whole in the context (the window of ${context.window} messages and the budget of ${context.budget} tokens), and truncation is disabled; use truncation "auto" to leave its oldest messages out`,
    {
      budget: context.budget,
      requiredTokens: context.totalTokens + 1,
      messageTokens: 0,
      systemTokens: 0,
      requestTokens: 0,
      budgetSource: 'CONTEXT_TOKEN_BUDGET',
    },
  );
}

/**
 * The recalled messages the context does not already hold: of this conversation, only those
 * older than every history message the plan may send (the part that has left the window) and
 * not pinned; of other conversations, all.
 */
function notInContext(
  recalled: readonly ContextRecall[],
  conversationId: string,
  history: readonly ContextMessage[],
  pinned: readonly ContextMessage[],
  beforeSeq: number,
): ContextRecall[] {
  const oldest = history[0]?.seq ?? beforeSeq;
  const pinnedSeqs = new Set(pinned.map((m) => m.seq));
  return recalled.filter((r) => r.conversationId !== conversationId || (r.seq < oldest && !pinnedSeqs.has(r.seq)));
}
