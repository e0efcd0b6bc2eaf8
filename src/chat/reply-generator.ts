import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { FunctionCallRecord, ToolCallRecord } from '../conversations/message.entity.js';
import type { ReplyOutcome, StartedTurn } from './turn.js';
import { ReplyStore } from './reply-store.js';
import { ModelCancelledError, ModelUnavailableError } from '../llm/llm.errors.js';
import type { Completion } from '../llm/llm.port.js';
import { TokenCounter } from '../context/token-counter.js';
import { sleep } from '../common/sleep.js';
import { Metrics, NO_METRICS, secondsSince } from '../metrics/metrics.js';
import { StorageError } from '../common/storage.errors.js';
import { ReplyNotStoredError } from './chat.errors.js';
import { ReplyBounds } from './reply-bounds.js';
import { ReplyProgress, type ProgressSaves } from './reply-progress.js';
import { ProgressSaver } from './progress-saver.js';
import { RepliesAwaitingStorage } from './replies-awaiting-storage.js';
import { Summarizer } from './summarizer.js';
import { ReasoningTrace } from './reasoning-trace.js';
import { ConversationTitler } from './conversation-titler.js';
import { ModelConversation, type Generation, type GenerationMode } from './model-conversation.js';

/** Model names come from the model server; stored names fit the model column (200). */
const MAX_MODEL_NAME_CHARS = 200;

/**
 * Produces the reply of a started turn and stores how it ended: `complete`, `truncated` (cut
 * at MAX_REPLY_CHARS or LLM_MAX_REPLY_MS: text up to the cut kept, with the reason), `failed`
 * (partial text kept, with the error) or `cancelled` (partial text kept). It never throws for a model
 * problem; the outcome says what happened. It does not depend on the client that asked: a
 * client that goes away does not stop it. Tool calls (update_state) run in bounded rounds.
 */
@Injectable()
export class ReplyGenerator {
  private readonly logger = new Logger(ReplyGenerator.name);

  constructor(
    private readonly replies: ReplyStore,
    private readonly tokens: TokenCounter,
    private readonly summarizer: Summarizer,
    private readonly model: ModelConversation,
    private readonly progressSaver: ProgressSaver,
    private readonly awaitingStorage: RepliesAwaitingStorage,
    private readonly titler: ConversationTitler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly metrics: Metrics = NO_METRICS,
  ) {}

  async run(turn: StartedTurn, mode: GenerationMode): Promise<ReplyOutcome> {
    let { outcome } = await this.produce(generationOf(turn), mode, this.progressSaver, async () => {
      // Rarely, the thread's summary is behind what this turn leaves out: let it catch up first.
      turn = await this.summarizer.catchUp(turn);
      return generationOf(turn);
    });
    // What the reply was given, as planned last (a summary catching up plans the turn again).
    outcome = { ...outcome, memoryIds: turn.context.memoryIds, recalledMessageIds: turn.context.recalledMessageIds };
    try {
      await this.replies.finishReply(turn.reply, outcome);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      const storage = error;
      this.awaitingStorage.add(turn.reply.id, storage);
      void this.finishLater(turn, outcome).finally(() => this.awaitingStorage.remove(turn.reply.id));
      throw new ReplyNotStoredError(storage, turn.conversation.id, turn.question.id, turn.reply.id);
    }
    if (outcome.status === 'complete' || outcome.status === 'truncated')
      this.summarizer.afterTurn(turn, outcome.tokens ?? null);
    if (outcome.status === 'complete') this.titler.afterReply(turn, outcome.content);
    return outcome;
  }

  /**
   * The reply of a turn that keeps nothing (OpenAI's `store: false`): generated as any reply
   * (bounds, tool rounds, metrics), with no row, no progress saves, no summary and no title.
   * Tools of ours that keep something (state, memories) are not offered: there is nothing to keep them in.
   * With no row to record it on, a failure rejects with its cause (the model's error).
   */
  async runUnstored(turn: UnstoredGeneration, mode: GenerationMode): Promise<ReplyOutcome> {
    const generation = { ...turn, replyId: randomUUID(), conversation: null };
    const { outcome, failure } = await this.produce(generation, mode, NO_SAVES, () => Promise.resolve(generation));
    if (outcome.status === 'failed') throw failure;
    return outcome;
  }

  /**
   * Generates a reply to its end, whatever ends it: the model's answer, a bound, a stop, a
   * failure. `saves` keeps its progress (and lease) while it runs; `prepare` runs first, inside
   * the reply's life, and may plan the generation again (a failure there fails the reply).
   */
  private async produce(
    initial: Generation,
    mode: GenerationMode,
    saves: ProgressSaves,
    prepare: () => Promise<Generation>,
  ): Promise<{ outcome: ReplyOutcome; failure?: unknown }> {
    const stop = new AbortController();
    const progress = new ReplyProgress(saves, initial.replyId, initial.conversation?.actor ?? '', () => stop.abort());
    // A stopped reply is no longer being generated: its lease is not renewed again.
    stop.signal.addEventListener('abort', () => progress.halt(), { once: true });
    const bounds = new ReplyBounds(this.config, () => stop.abort());
    const toolRecords: ToolCallRecord[] = [];
    const clientCalls: FunctionCallRecord[] = [];
    const reasoning = new ReasoningTrace(this.config.maxReplyChars);
    const start = performance.now();
    progress.start();
    let generation = initial;
    let outcome: ReplyOutcome;
    let failure: unknown;
    try {
      generation = await prepare();
      const completion = await this.model.converse(
        generation,
        mode,
        stop.signal,
        progress,
        bounds,
        toolRecords,
        clientCalls,
        reasoning,
      );
      outcome = bounds.reason
        ? this.cutOutcome(progress.content, generation, toolRecords, bounds)
        : {
            ...this.doneOutcome(completion, progress.content, generation, toolRecords),
            ...(clientCalls.length ? { functionCalls: clientCalls } : {}),
          };
    } catch (error) {
      // A cut aborts the model call, which then rejects: the cut is what happened.
      failure = error;
      outcome = bounds.reason
        ? this.cutOutcome(progress.content, generation, toolRecords, bounds)
        : { ...this.failedOutcome(error, progress.content, generation), toolCalls: toolRecords };
    } finally {
      bounds.end();
      await progress.stop();
    }
    this.metrics.turnEnded(outcome.status, secondsSince(start));
    if (outcome.usage) this.metrics.tokens(outcome.usage.promptTokens, outcome.usage.completionTokens);
    return { outcome: { ...outcome, ...thoughtOf(reasoning, mode) }, failure };
  }

  /**
   * Tries again to store a reply the database refused, while the reply's lease still keeps
   * other instances from closing it; after that the janitor closes it as interrupted.
   */
  private async finishLater(turn: StartedTurn, outcome: ReplyOutcome): Promise<void> {
    const deadline = Date.now() + this.config.replyLeaseMs / 2;
    for (let pause = 250; Date.now() + pause < deadline; pause *= 2) {
      await sleep(pause);
      try {
        await this.replies.finishReply(turn.reply, outcome);
        this.logger.log(`Reply ${turn.reply.id} stored after the database refused it at first`);
        return;
      } catch (error) {
        if (!(error instanceof StorageError)) return;
      }
    }
    this.logger.warn(`Reply ${turn.reply.id} could not be stored; it will be closed as interrupted`);
  }

  private doneOutcome(
    completion: Completion,
    content: string,
    turn: Generation,
    toolCalls: ToolCallRecord[],
  ): ReplyOutcome {
    const tokens = this.tokens.count(content, turn.model);
    // Servers that report no usage (echo, some local ones) get it counted with the same tokenizer.
    const usage = completion.usage ?? { promptTokens: turn.context.totalTokens, completionTokens: tokens };
    // The name is the server's: keep it within what the column (and an import) holds.
    return {
      status: 'complete',
      content,
      model: completion.model.slice(0, MAX_MODEL_NAME_CHARS),
      usage,
      error: null,
      toolCalls,
      tokens,
    };
  }

  /** The text up to the cut (possibly none), kept and replayed like a finished reply, with the reason. */
  private cutOutcome(
    content: string,
    turn: Generation,
    toolCalls: ToolCallRecord[],
    bounds: ReplyBounds,
  ): ReplyOutcome {
    const reason = bounds.reason!;
    this.logger.warn(`Reply ${describe(turn)} was cut: ${reason.code}`);
    const error = { code: reason.code, message: reason.message };
    const tokens = this.tokens.count(content, turn.model);
    // The call was aborted, so the server reported no usage: count what was kept.
    const usage = { promptTokens: turn.context.totalTokens, completionTokens: tokens };
    return { status: 'truncated', content, model: turn.model, usage, error, toolCalls, tokens };
  }

  private failedOutcome(error: unknown, partial: string, turn: Generation): ReplyOutcome {
    const model = turn.model;
    if (error instanceof ModelCancelledError) {
      return { status: 'cancelled', content: partial, model, usage: null, error: null };
    }
    const cause =
      error instanceof ModelUnavailableError
        ? error
        : new ModelUnavailableError(`The model call failed: ${String(error)}`);
    this.logger.warn(`Reply ${describe(turn)} failed: ${cause.code}`);
    return {
      status: 'failed',
      content: partial,
      model,
      usage: null,
      error: { code: cause.code, message: cause.message },
    };
  }
}

/** A planned turn that keeps nothing (see runUnstored). */
type UnstoredGeneration = Omit<Generation, 'replyId' | 'conversation'>;

function generationOf(turn: StartedTurn): Generation {
  return {
    replyId: turn.reply.id,
    conversation: turn.conversation,
    agent: turn.agent,
    model: turn.model,
    context: turn.context,
  };
}

function describe(turn: Generation): string {
  return turn.conversation ? `${turn.replyId} in conversation ${turn.conversation.id}` : `${turn.replyId} (not stored)`;
}

/** A reply that keeps nothing saves no progress. */
const NO_SAVES: ProgressSaves = { add: () => undefined, remove: () => Promise.resolve() };

/** The reasoning kept for a reply; only a streamed reply's thinking is timed (a whole answer comes at once). */
function thoughtOf(
  reasoning: ReasoningTrace,
  mode: GenerationMode,
): { reasoning: string | null; reasoningMs: number | null } {
  const result = reasoning.result();
  return mode.stream ? result : { ...result, reasoningMs: null };
}
