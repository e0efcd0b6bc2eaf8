import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { sleep } from '../common/sleep.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { DatabaseWakeups } from '../database/database-wakeups.js';
import type { FunctionCallRecord, Message } from '../conversations/message.entity.js';
import { TurnPlanner } from './turn-planner.js';
import { ReplyStore } from './reply-store.js';
import { TurnStore } from './turn-store.js';
import { MessagePins } from './message-pins.js';
import { ModelConversation } from './model-conversation.js';
import { ContextPreviews } from './context-previews.js';
import type { ContextPreview, ReplyOutcome, StartedTurn } from './turn.js';
import { Metrics, NO_METRICS } from '../metrics/metrics.js';
import { ChatTurnFailedError } from './chat.errors.js';
import { MessageNotFoundError } from '../conversations/conversation.errors.js';
import { MAIN_THREAD } from '../conversations/thread.entity.js';
import { ReplyGenerator } from './reply-generator.js';
import type { GenerationMode, ModelOptions } from './model-conversation.js';
import { GenerationSlots } from './generation-slots.js';
import { TurnRecall } from '../recall/turn-recall.js';
import type { ContextRecall } from '../context/context-sources.js';
import { FollowerReads } from './follower-reads.js';
import { UnstoredTurns, type UnstoredRequest } from './unstored-turn.js';
import { DomainError } from '../common/domain-error.js';
import { cutReason, type ChatRequest, type ChatResult, type TurnAsk, type TurnEvents } from './chat-request.js';

/**
 * Chat turns for every surface. Promises: the question is committed before the model is
 * called; a reply is stored before it is reported done; a model failure is recorded on the
 * reply and reported, never swallowed; no transaction stays open while the model works; a
 * turn runs to its end even if its client leaves; on shutdown, turns in flight finish.
 */
@Injectable()
export class ChatService implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChatService.name);
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(
    private readonly turns: TurnStore,
    private readonly pins: MessagePins,
    private readonly model: ModelConversation,
    private readonly previews: ContextPreviews,
    private readonly replies: ReplyStore,
    private readonly planner: TurnPlanner,
    private readonly conversations: ConversationsService,
    private readonly generator: ReplyGenerator,
    private readonly slots: GenerationSlots,
    private readonly recall: TurnRecall,
    private readonly unstored: UnstoredTurns,
    private readonly wakeups: DatabaseWakeups,
    private readonly reads: FollowerReads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly metrics: Metrics = NO_METRICS,
  ) {}

  /** The model a turn calls when neither the request nor an agent names one. */
  get defaultModel(): string {
    return this.planner.modelFor(null);
  }

  /**
   * Every chat turn: `what` it does (ask a question, ask an edited question again, answer the
   * last question again) and how it is answered. Whole (no `events`): resolves once the reply is
   * stored, and a failed reply throws (ChatTurnFailedError); `started` learns the turn's ids as
   * soon as the question is stored, and the model is called once what it returns settles (it
   * must not throw). Streamed (`events`): each piece goes to them, and it resolves with the
   * stored outcome, whatever it is.
   */
  async run(actor: Actor, what: TurnAsk, how: { readonly events: TurnEvents }): Promise<ReplyOutcome>;
  async run(
    actor: Actor,
    what: TurnAsk,
    how?: { readonly started?: (turn: StartedTurn) => void | Promise<void> },
  ): Promise<ChatResult>;
  async run(
    actor: Actor,
    what: TurnAsk,
    how: { readonly events?: TurnEvents; readonly started?: (turn: StartedTurn) => void | Promise<void> } = {},
  ): Promise<ReplyOutcome | ChatResult> {
    const options = 'ask' in what ? what.ask.options : 'edit' in what ? what.edit.options : what.regenerate.options;
    const { turn, release } = await this.begin(actor, () => this.start(actor, what));
    const { events } = how;
    if (events) return this.generate(turn, streamed(events, options), release, (t) => events.started(t));
    return toResult(turn, await this.generate(turn, { stream: false, options }, release, how.started));
  }

  /** A turn that stores nothing (no conversation): its input is the whole history; `onDelta` streams the reply. A model failure rejects. */
  async answerUnstored(
    actor: Actor,
    request: UnstoredRequest,
    onDelta?: (text: string) => void,
  ): Promise<ReplyOutcome> {
    const release = this.slots.take(actor.id);
    return this.track(this.unstored.run(actor, request, onDelta).finally(release));
  }

  /**
   * Runs a call of a tool of ours that the conversation's reply `replyId` ended waiting on, once
   * the client approved it; answers what the tool returned, for the turn that goes on after it.
   */
  async runApprovedTool(
    actor: Actor,
    conversationId: string,
    replyId: string,
    call: FunctionCallRecord,
  ): Promise<string> {
    const reply = await this.conversations.getMessage(actor, conversationId, replyId);
    if (!reply.functionCalls?.some((c) => c.callId === call.callId && c.name === call.name))
      throw new MessageNotFoundError(replyId);
    return this.model.runApproved(actor, conversationId, replyId, call);
  }

  /**
   * Follows a reply from the database (so from any instance): `onDelta` gets the text stored so
   * far, then each addition, until the reply ends. Resolves with the final message, or with
   * the message as it stands if `signal` aborts first.
   */
  async follow(
    actor: Actor,
    conversationId: string,
    messageId: string,
    onDelta: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<Message> {
    const done = this.metrics.followerStarted();
    try {
      return await this.followFromDatabase(actor, conversationId, messageId, onDelta, signal);
    } finally {
      done();
    }
  }

  /**
   * Reads the reply when the database says it changed (or, on SQLite, takes the committed text
   * the wake-up carries), and polls only as a fallback: every FOLLOW_POLL_MS while wake-ups are
   * delivered, every STREAM_FLUSH_MS while they are not (the PostgreSQL listener is down).
   */
  private async followFromDatabase(
    actor: Actor,
    conversationId: string,
    messageId: string,
    onDelta: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<Message> {
    // Subscribed before the first read, so nothing committed after it goes unseen.
    const wakeups = this.wakeups.subscribe(messageId);
    try {
      let sent = '';
      let message: Message | null = null;
      let committed: string | undefined;
      let cause: 'first' | 'wake' | 'poll' = 'first';
      for (;;) {
        if (message && committed !== undefined && committed.startsWith(sent)) {
          // The text of a progress save of this process, durable: no read needed.
          message = { ...(message as Message), content: committed };
        } else {
          this.metrics.followerRead(cause);
          message = await this.reads.read(actor, conversationId, messageId);
          // A regeneration restarts the text; follow the new answer from its start.
          if (!message.content.startsWith(sent)) sent = '';
        }
        if (message.content.length > sent.length) {
          onDelta(message.content.slice(sent.length));
          sent = message.content;
        }
        // On shutdown a follower lets go (its client reconnects to another instance); a generator does not.
        if (message.status !== 'streaming' || signal?.aborted || this.closing) return message;
        const wake = await wakeups.next(
          this.wakeups.live ? this.config.followPollMs : this.config.streamFlushMs,
          signal,
        );
        committed = wake?.content;
        cause = wake ? 'wake' : 'poll';
      }
    } finally {
      wakeups.close();
    }
  }

  /**
   * Stops a reply being generated, on whichever instance generates it, and waits (briefly) for
   * it to close. Returns the message as it then stands; an already finished reply is unchanged.
   */
  async cancel(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    let message = await this.replies.requestCancel(actor, conversationId, messageId);
    const deadline = Date.now() + Math.max(2_000, this.config.streamFlushMs * 10);
    while (message.status === 'streaming' && Date.now() < deadline) {
      await sleep(Math.min(50, this.config.streamFlushMs));
      message = await this.conversations.getMessage(actor, conversationId, messageId);
    }
    // Answered as the API shows a message: with its place in the tree.
    return this.conversations.getMessageInTree(actor, conversationId, message.id);
  }

  /** Pins or unpins a message (see MessagePins.pin); answers it as the API shows a message. */
  async pinMessage(actor: Actor, conversationId: string, messageId: string, pinned: boolean): Promise<Message> {
    await this.pins.pin(actor, conversationId, messageId, pinned, this.planner.plan);
    return this.conversations.getMessageInTree(actor, conversationId, messageId);
  }

  /** What the next turn of a thread would send the model (read-only). */
  async previewContext(actor: Actor, conversationId: string, thread: string): Promise<ContextPreview> {
    const { plan, outsideWindow } = await this.previews.preview(actor, conversationId, thread, this.planner.plan);
    return {
      model: plan.model,
      encoding: this.planner.encodingName(plan.model),
      context: plan.context,
      outsideWindow,
      summaryCoversSeq: plan.summaryCoversSeq,
    };
  }

  private async startTurn(actor: Actor, request: ChatRequest, edited?: string): Promise<StartedTurn> {
    const asked = request.items
      ? [...request.items].reverse().find((i) => i.role === 'user')?.content
      : request.message;
    await this.conversations.assertModelOffered(request.model);
    const recalled = asked ? await this.recalled(actor, asked, request.conversationId) : [];
    const turn = {
      content: request.message,
      conversationId: request.conversationId,
      alias: request.alias,
      agentId: request.agentId,
      thread: request.thread,
      threadSystem: request.system,
      parentMessageId: request.parentMessageId,
      editMessageId: edited,
      items: request.items,
      override: request.override,
      clientMessageId: request.clientMessageId,
      model: request.model,
      recalled,
    };
    return this.turns.startTurn(actor, turn, this.planner.plan);
  }

  /** What recall finds for the message; recall is an aid: when it fails, the turn goes on without it. */
  private async recalled(actor: Actor, message: string, conversationId?: string): Promise<ContextRecall[]> {
    try {
      return await this.recall.forMessage(actor, message, conversationId);
    } catch (error) {
      if (error instanceof DomainError) return [];
      this.logger.warn(`Recall failed; the turn goes on without it: ${(error as Error).message}`);
      return [];
    }
  }

  private start(actor: Actor, what: TurnAsk): Promise<StartedTurn> {
    if ('ask' in what) return this.startTurn(actor, what.ask);
    if ('edit' in what) {
      const { conversationId, messageId, message, clientMessageId } = what.edit;
      return this.startTurn(actor, { message, conversationId, clientMessageId }, messageId);
    }
    const { conversationId, thread, messageId } = what.regenerate;
    return this.turns.startRegeneration(actor, conversationId, thread ?? MAIN_THREAD, this.planner.plan, messageId);
  }

  /** Takes a generation place (MAX_GENERATIONS_PER_ACTOR) before anything is stored, then starts the turn. */
  private async begin(
    actor: Actor,
    start: () => Promise<StartedTurn>,
  ): Promise<{ turn: StartedTurn; release: () => void }> {
    const release = this.slots.take(actor.id);
    try {
      return { turn: await start(), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Generates the reply of a started turn, holding its generation place until the reply ends (the client may have gone). */
  private async generate(
    turn: StartedTurn,
    mode: GenerationMode,
    release: () => void,
    started?: (turn: StartedTurn) => void | Promise<void>,
  ): Promise<ReplyOutcome> {
    try {
      await started?.(turn);
    } catch (error) {
      release();
      throw error;
    }
    return this.track(this.generator.run(turn, mode).finally(release));
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  onModuleDestroy(): void {
    this.closing = true;
  }

  /** SIGTERM: let replies being generated finish and be stored before the database closes. */
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

/** The generation of a streamed turn: its text, its thinking and the tools it runs go to `events`. */
function streamed(events: TurnEvents, options: ModelOptions | undefined): GenerationMode {
  return {
    stream: true,
    onDelta: (text) => events.delta(text),
    onTool: (call) => events.tool?.(call),
    onReasoning: events.reasoning && ((text) => events.reasoning?.(text)),
    options,
  };
}

function toResult(turn: StartedTurn, outcome: ReplyOutcome): ChatResult {
  const ids = { conversationId: turn.conversation.id, userMessageId: turn.question.id, messageId: turn.reply.id };
  if (outcome.status === 'failed') {
    const error = outcome.error ?? { code: 'model_unavailable', message: 'The model failed' };
    throw new ChatTurnFailedError(error.code, error.message, ids.conversationId, ids.userMessageId, ids.messageId);
  }
  return {
    ...ids,
    agentId: turn.conversation.agentId,
    thread: turn.thread.name,
    title: turn.conversation.title,
    created: turn.created,
    reply: outcome.content,
    status: outcome.status,
    reason: cutReason(outcome),
    model: outcome.model,
    usage: outcome.usage,
    functionCalls: outcome.functionCalls ?? [],
  };
}
