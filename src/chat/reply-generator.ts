import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ReplyOutcome, StartedTurn } from '../conversations/turns.service.js';
import { TurnsService } from '../conversations/turns.service.js';
import { ModelCancelledError, ModelTimeoutError, ModelUnavailableError } from '../llm/llm.errors.js';
import { LLM_PORT, type LlmPort } from '../llm/llm.port.js';
import { buildContext } from './context-window.js';
import { ReplyProgress } from './reply-progress.js';

export interface GenerationMode {
  /** Stream from the model and hand each piece of text to `onDelta` as it comes. */
  readonly stream: boolean;
  readonly onDelta?: (text: string) => void;
}

/**
 * Produces the reply of a started turn and stores how it ended: `complete`, `failed` (partial
 * text kept, with the error) or `cancelled` (partial text kept). It never throws for a model
 * problem; the outcome says what happened. It does not depend on the client that asked: a
 * client that goes away does not stop it.
 */
@Injectable()
export class ReplyGenerator {
  private readonly logger = new Logger(ReplyGenerator.name);

  constructor(
    private readonly turns: TurnsService,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(turn: StartedTurn, mode: GenerationMode): Promise<ReplyOutcome> {
    const stop = new AbortController();
    const progress = new ReplyProgress(this.turns, turn.reply.id, this.config, () => stop.abort());
    const request = {
      messages: buildContext({
        systemPrompts: [this.config.systemPrompt],
        history: turn.history,
        window: this.config.historyWindow,
        newMessage: turn.question.content,
      }),
      signal: stop.signal,
    };
    progress.start();
    let outcome: ReplyOutcome;
    try {
      const completion = mode.stream
        ? await this.llm.stream(request, (piece) => {
            progress.append(piece);
            mode.onDelta?.(piece);
          })
        : await this.llm.complete(request);
      outcome = { status: 'complete', content: completion.content, model: completion.model, usage: completion.usage, error: null };
    } catch (error) {
      outcome = this.failedOutcome(error, progress.content, turn);
    } finally {
      await progress.stop();
    }
    await this.turns.finishReply(turn.conversation.id, turn.reply.id, outcome);
    return outcome;
  }

  private failedOutcome(error: unknown, partial: string, turn: StartedTurn): ReplyOutcome {
    const model = this.llm.defaultModel;
    if (error instanceof ModelCancelledError) {
      return { status: 'cancelled', content: partial, model, usage: null, error: null };
    }
    const cause = error instanceof ModelUnavailableError ? error : new ModelUnavailableError(`The model call failed: ${String(error)}`);
    this.logger.warn(`Reply ${turn.reply.id} in conversation ${turn.conversation.id} failed: ${cause.code}`);
    const status = cause instanceof ModelTimeoutError ? 504 : 502;
    return { status: 'failed', content: partial, model, usage: null, error: { status, message: cause.message } };
  }
}
