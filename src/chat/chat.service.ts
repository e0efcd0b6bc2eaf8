import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { ModelUnavailableError } from '../llm/llm.errors.js';
import { LLM_PORT, type Completion, type LlmPort } from '../llm/llm.port.js';
import { ChatTurnFailedError } from './chat.errors.js';
import { buildContext } from './context-window.js';

export interface ChatRequest {
  readonly message: string;
  readonly conversationId?: string;
}

export interface ChatResult {
  readonly conversationId: string;
  readonly title: string;
  readonly created: boolean;
  readonly userMessageId: string;
  readonly messageId: string;
  readonly reply: string;
  readonly model: string;
  readonly usage: Completion['usage'];
}

/**
 * One chat turn for any surface. Promises: the user's message is committed before the model
 * is called; the reply is stored before it is returned; a model failure is recorded and
 * raised as ChatTurnFailedError, never swallowed; no database transaction stays open while
 * the model works. On shutdown, turns in flight are allowed to finish.
 */
@Injectable()
export class ChatService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ChatService.name);
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly conversations: ConversationsService,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  send(actor: Actor, request: ChatRequest): Promise<ChatResult> {
    const turn = this.runTurn(actor, request);
    this.inFlight.add(turn);
    void turn.finally(() => this.inFlight.delete(turn)).catch(() => undefined);
    return turn;
  }

  private async runTurn(actor: Actor, request: ChatRequest): Promise<ChatResult> {
    const window = this.config.historyWindow;
    const turn = await this.conversations.beginUserTurn(actor, request.conversationId, request.message, window);
    const { conversation, userMessage } = turn;
    const messages = buildContext({
      systemPrompts: [this.config.systemPrompt],
      history: turn.history,
      window,
      newMessage: userMessage.content,
    });

    let completion: Completion;
    try {
      completion = await this.llm.complete({ messages });
    } catch (error) {
      const cause = error instanceof ModelUnavailableError ? error : new ModelUnavailableError(String(error));
      await this.recordFailure(actor, conversation.id, cause);
      throw new ChatTurnFailedError(cause, conversation.id, userMessage.id);
    }

    const reply = await this.conversations.appendMessage(actor, conversation.id, {
      role: 'assistant',
      content: completion.content,
      model: completion.model,
      promptTokens: completion.usage?.promptTokens ?? null,
      completionTokens: completion.usage?.completionTokens ?? null,
    });
    return {
      conversationId: conversation.id,
      title: conversation.title,
      created: turn.created,
      userMessageId: userMessage.id,
      messageId: reply.id,
      reply: reply.content,
      model: completion.model,
      usage: completion.usage,
    };
  }

  /** Keeps a trace of the failed reply (never replayed to the model); the turn's error still goes up. */
  private async recordFailure(actor: Actor, conversationId: string, cause: ModelUnavailableError): Promise<void> {
    this.logger.warn(`Model call failed in conversation ${conversationId}: ${cause.code}`);
    try {
      await this.conversations.appendMessage(actor, conversationId, {
        role: 'assistant',
        content: '',
        status: 'failed',
        model: this.llm.defaultModel,
      });
    } catch (error) {
      this.logger.error(`Could not record the failed reply in ${conversationId}: ${(error as Error).message}`);
    }
  }

  /** SIGTERM: let turns in flight store their replies before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.inFlight.size === 0) return;
    this.logger.log(`Waiting for ${this.inFlight.size} chat turn(s) in flight`);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.config.shutdownGraceMs);
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
  }
}
