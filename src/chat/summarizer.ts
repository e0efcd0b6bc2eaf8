import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TokenCounter } from '../context/token-counter.js';
import { foldAheadBoundary } from '../context/fold-ahead.js';
import { summaryMessage } from '../context/state-message.js';
import { TurnPlanner } from './turn-planner.js';
import { TurnStore } from './turn-store.js';
import type { StartedTurn } from './turn.js';
import { SummariesService } from '../conversations/summaries.service.js';
import { LLM_PORT, type LlmPort } from '../llm/llm.port.js';

/** At most this many messages are folded per model call; a longer backlog takes several calls. */
const FOLD_BATCH = 40;
/** At most this many tokens of messages per fold, so a batch always fits a small model. */
const FOLD_MAX_TOKENS = 3_000;
/** Upper bound on the summary's length, in tokens. */
const SUMMARY_MAX_TOKENS = 600;

const INSTRUCTIONS =
  'You maintain the running summary of a conversation between a user and an assistant. ' +
  'Rewrite the summary so that it also covers the new messages. Keep names, numbers, decisions, ' +
  "the user's preferences and open questions; drop small talk. Write plain prose, at most about 300 words, " +
  'and answer with the summary only.';

/**
 * Rolling summaries (SUMMARY_MODE=rolling): once a reply is stored, the messages the next turn
 * will not replay are folded into the thread's running summary by the model, in the background.
 * Until a fold lands, turns replay what it has not covered (the planner's stretch); only when
 * the budget cannot hold that does a turn wait for the fold (catchUp). A failed fold changes
 * nothing and is retried after the next turn.
 */
@Injectable()
export class Summarizer implements BeforeApplicationShutdown {
  private readonly logger = new Logger(Summarizer.name);
  private readonly running = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();

  constructor(
    private readonly summaries: SummariesService,
    private readonly turns: TurnStore,
    private readonly planner: TurnPlanner,
    private readonly tokens: TokenCounter,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Schedules, after a completed reply, a fold of what the next turn is not expected to replay
   * (one fold per thread at a time): folding a turn ahead, the summary usually covers those
   * messages before that turn is planned. `replyTokens`: the stored reply's count.
   */
  afterTurn(turn: StartedTurn, replyTokens: number | null = null): void {
    if (this.config.summaryMode !== 'rolling' || this.stop.signal.aborted) return;
    const outsideBefore = foldAheadBoundary({
      context: turn.context,
      question: turn.question,
      reply: { seq: turn.reply.seq, tokens: replyTokens },
      summaryReserve: this.summaryReserve(turn.model),
    });
    // Nothing more to fold than the summary the turn read covers: no fold, and no read to find that out.
    // (A summary only moves forward, so one folded meanwhile cannot change this.)
    if (outsideBefore - 1 <= turn.summaryCoversSeq) return;
    const key = `${turn.conversation.id}/${turn.thread.name}`;
    if (this.running.has(key)) return;
    void this.foldNow(key, turn, outsideBefore);
  }

  /**
   * Before a turn calls the model: when its plan leaves out messages that its summary does not
   * cover yet (a fold still running, a question much longer than the last, a fold that failed),
   * it waits for the thread's fold, or folds now, and is planned again. This is the one case in
   * which a fold is on a user's wait; a fold that fails leaves the plan as it was.
   */
  async catchUp(turn: StartedTurn): Promise<StartedTurn> {
    if (turn.context.uncoveredOmitted === 0 || this.config.summaryMode !== 'rolling' || this.stop.signal.aborted)
      return turn;
    // A summary too large for the budget is not sent: folding more into it cannot help.
    if (turn.summaryCoversSeq > 0 && !turn.context.summaryIncluded) return turn;
    const key = `${turn.conversation.id}/${turn.thread.name}`;
    const running = this.running.get(key);
    if (running) {
      await running;
      const planned = await this.turns.replan(turn, this.planner.plan);
      if (planned.context.uncoveredOmitted === 0 || this.stop.signal.aborted) return planned;
    }
    await (this.running.get(key) ?? this.foldNow(key, turn, turn.question.seq));
    const planned = await this.turns.replan(turn, this.planner.plan);
    if (planned.context.uncoveredOmitted > 0)
      this.logger.warn(
        `Summary of ${key} is behind: ${planned.context.uncoveredOmitted} message(s) left out of this turn`,
      );
    return planned;
  }

  /** Folds everything of the turn's thread before `outsideBefore`; never rejects. */
  private foldNow(key: string, turn: StartedTurn, outsideBefore: number): Promise<void> {
    const work = this.fold(turn.conversation.id, turn.thread.name, outsideBefore, turn.model)
      // The error's text may quote the model server (and so the conversation): log its kind only.
      .catch((error: Error & { code?: string }) =>
        this.logger.warn(`Summary of ${key} failed (retried after the next turn): ${error.code ?? error.name}`),
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, work);
    return work;
  }

  /** The room a summary may take in a context: its intro line and the longest answer a fold keeps. */
  private summaryReserve(model: string): number {
    return this.tokens.countCached(summaryMessage(''), model) + SUMMARY_MAX_TOKENS;
  }

  /** Resolves when every fold in progress has ended (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // A fold cut short is simply redone later: stop waiting for the model.
    this.stop.abort();
    await this.idle();
  }

  private async fold(conversationId: string, thread: string, outsideBefore: number, model: string): Promise<void> {
    for (let batch = 0; batch < 25; batch++) {
      const pending = await this.summaries.pendingFold(conversationId, thread, outsideBefore, FOLD_BATCH);
      if (!pending) return;
      const { previous } = pending;
      const messages = withinTokens(pending.messages, FOLD_MAX_TOKENS);
      const transcript = messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`).join('\n\n');
      const completion = await this.llm.complete({
        model,
        maxTokens: SUMMARY_MAX_TOKENS,
        signal: this.stop.signal,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          {
            role: 'user',
            content: `Summary so far:\n${previous?.content ?? '(none yet)'}\n\nNew messages:\n${transcript}`,
          },
        ],
      });
      const content = completion.content.trim();
      if (!content) throw new Error('the model returned an empty summary');
      const written = await this.summaries.saveFold({
        actor: messages[0].actor,
        conversationId,
        thread,
        content,
        coversSeq: messages.at(-1)!.seq,
        expectedCoversSeq: previous?.coversSeq ?? 0,
        tokens: this.tokens.count(content, model),
        model: completion.model,
        usage: completion.usage ?? { promptTokens: 0, completionTokens: this.tokens.count(content, model) },
      });
      if (!written) return; // another instance folded these messages first
    }
  }
}

/** The first messages whose token counts add up to at most `max` (always at least one). */
function withinTokens<T extends { tokens: number | null; content: string }>(messages: readonly T[], max: number): T[] {
  const kept: T[] = [];
  let total = 0;
  for (const m of messages) {
    total += m.tokens ?? Math.ceil(m.content.length / 4);
    if (kept.length > 0 && total > max) break;
    kept.push(m);
  }
  return kept;
}
