import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TokenCounter } from '../context/token-counter.js';
import type { StartedTurn } from '../conversations/turns.service.js';
import { SummariesService } from '../conversations/summaries.service.js';
import { LLM_PORT, type LlmPort } from '../llm/llm.port.js';

/** At most this many messages are folded per model call; a longer backlog takes several calls. */
export const FOLD_BATCH = 40;
/** At most this many tokens of messages per fold, so a batch always fits a small model. */
export const FOLD_MAX_TOKENS = 3_000;
/** Upper bound on the summary's length, in tokens. */
export const SUMMARY_MAX_TOKENS = 600;

const INSTRUCTIONS =
  'You maintain the running summary of a conversation between a user and an assistant. ' +
  'Rewrite the summary so that it also covers the new messages. Keep names, numbers, decisions, ' +
  "the user's preferences and open questions; drop small talk. Write plain prose, at most about 300 words, " +
  'and answer with the summary only.';

/**
 * Rolling summaries (SUMMARY_MODE=rolling): once a reply is stored, the messages that have left
 * the thread's window are folded into its running summary by the model, in the background —
 * never on a user's wait. A failed fold changes nothing and is retried after the next turn.
 */
@Injectable()
export class Summarizer implements BeforeApplicationShutdown {
  private readonly logger = new Logger(Summarizer.name);
  private readonly running = new Map<string, Promise<void>>();
  private readonly stop = new AbortController();

  constructor(
    private readonly summaries: SummariesService,
    private readonly tokens: TokenCounter,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Schedules a fold of what fell out of the window on this turn (one fold per thread at a time). */
  afterTurn(turn: StartedTurn): void {
    if (this.config.summaryMode !== 'rolling' || this.stop.signal.aborted) return;
    // Everything before the oldest replayed message is outside the window now.
    const outsideBefore = turn.context.oldestIncludedSeq ?? turn.question.seq;
    // Nothing left the window since the summary the turn read: no fold, and no read to find that out.
    // (A summary only moves forward, so one folded meanwhile cannot change this.)
    if (outsideBefore - 1 <= turn.summaryCoversSeq) return;
    const key = `${turn.conversation.id}/${turn.thread.name}`;
    if (this.running.has(key)) return;
    const work = this.fold(turn.conversation.id, turn.thread.name, outsideBefore, turn.model)
      // The error's text may quote the model server (and so the conversation): log its kind only.
      .catch((error: Error & { code?: string }) => this.logger.warn(`Summary of ${key} failed (retried after the next turn): ${error.code ?? error.name}`))
      .finally(() => this.running.delete(key));
    this.running.set(key, work);
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
          { role: 'user', content: `Summary so far:\n${previous?.content ?? '(none yet)'}\n\nNew messages:\n${transcript}` },
        ],
      });
      const content = completion.content.trim();
      if (!content) throw new Error('the model returned an empty summary');
      const written = await this.summaries.saveFold({
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
