import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import type { Agent } from '../agents/agent.entity.js';
import type { PlannedContext } from '../context/context-planner.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { FunctionCallRecord, ToolCallRecord } from '../conversations/message.entity.js';
import type { ReplyOutcome, StartedTurn } from './turn.js';
import { ReplyStore } from './reply-store.js';
import { ModelCancelledError, ModelUnavailableError } from '../llm/llm.errors.js';
import {
  LLM_PORT,
  type Completion,
  type CompletionRequest,
  type LlmPort,
  type PromptMessage,
  type ResponseFormat,
  type ToolChoice,
  type ToolSpec,
} from '../llm/llm.port.js';
import { TokenCounter } from '../context/token-counter.js';
import { sleep } from '../common/sleep.js';
import { Metrics, NO_METRICS, secondsSince } from '../metrics/metrics.js';
import { StorageError } from '../common/storage.errors.js';
import { ReplyNotStoredError } from './chat.errors.js';
import { addUsage, giveUpAfterStop, modelSettingsOf } from './model-call.js';
import { ReplyBounds } from './reply-bounds.js';
import { ReplyProgress, type ProgressSaves } from './reply-progress.js';
import { ProgressSaver } from './progress-saver.js';
import { RepliesAwaitingStorage } from './replies-awaiting-storage.js';
import { Summarizer } from './summarizer.js';
import { runUpdateState, UPDATE_STATE_TOOL } from './tools/update-state.tool.js';
import { FORGET_TOOL, REMEMBER_TOOL, runForget, runRemember } from './tools/memory.tools.js';
import { MemoryService } from '../memory/memory.service.js';
import { memoryModeOf, memoryToolsOf } from './memory-mode.js';
import { ReasoningTrace } from './reasoning-trace.js';
import { ConversationTitler } from './conversation-titler.js';

/** How many times one reply may call tools before the model must answer in words. */
const MAX_TOOL_ROUNDS = 4;

export interface ModelOptions {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  /** The shape of the reply's text (structured outputs); plain text when unset. */
  readonly responseFormat?: ResponseFormat;
  /** Whether the model may call several of the client's functions at once. */
  readonly parallelToolCalls?: boolean;
  /** Functions the client runs itself (OpenAI function tools): a call of one ends the reply with it. */
  readonly clientTools?: readonly ToolSpec[];
  readonly toolChoice?: ToolChoice;
  /** Tools of ours whose calls wait for the client's approval: a call of one ends the reply with it, like a client function. */
  readonly approvalTools?: readonly string[];
}

export interface GenerationMode {
  /** Stream from the model and hand each piece of text to `onDelta` as it comes. */
  readonly stream: boolean;
  readonly onDelta?: (text: string) => void;
  /** Each tool of ours the reply ran, once it returned. */
  readonly onTool?: (call: ToolCallRecord) => void;
  /** Streaming: each piece of a reasoning model's thinking, as it comes (at most MAX_REPLY_CHARS in all). */
  readonly onReasoning?: (text: string) => void;
  /** Per-request settings; they override the agent's. */
  readonly options?: ModelOptions;
}

/** Model and tool names come from the model server; stored names fit the model column (200). */
const MAX_MODEL_NAME_CHARS = 200;
const MAX_TOOL_NAME_CHARS = MAX_MODEL_NAME_CHARS;

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
    private readonly conversations: ConversationsService,
    private readonly tokens: TokenCounter,
    private readonly summarizer: Summarizer,
    private readonly memories: MemoryService,
    private readonly progressSaver: ProgressSaver,
    private readonly awaitingStorage: RepliesAwaitingStorage,
    private readonly titler: ConversationTitler,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
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
      const completion = await this.converse(
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

  /** Calls the model, runs the tools it asks for, and calls it again, until it answers in words. */
  private async converse(
    turn: Generation,
    mode: GenerationMode,
    signal: AbortSignal,
    progress: ReplyProgress,
    bounds: ReplyBounds,
    toolRecords: ToolCallRecord[],
    clientCalls: FunctionCallRecord[],
    reasoning: ReasoningTrace,
  ): Promise<Completion> {
    const { agent } = turn;
    // Nothing kept, nothing remembered: a turn that stores nothing is a temporary chat.
    const memoryTools = memoryToolsOf(
      memoryModeOf(this.config.memoryMode, agent, turn.conversation ?? { memory: false }),
      agent,
    );
    const ownTools = [
      ...(turn.conversation && agent?.tools.includes('update_state') ? [UPDATE_STATE_TOOL] : []),
      ...(memoryTools.includes('remember') ? [REMEMBER_TOOL] : []),
      ...(memoryTools.includes('forget') ? [FORGET_TOOL] : []),
    ];
    // The client's functions (the OpenAI surface) are offered beside ours; a name of ours stays ours.
    const own = new Set(ownTools.map((t) => t.name));
    const clientTools = (mode.options?.clientTools ?? []).filter((t) => !own.has(t.name));
    const forClient = new Set([
      ...clientTools.map((t) => t.name),
      ...(mode.options?.approvalTools ?? []).filter((name) => own.has(name)),
    ]);
    const tools = [...ownTools, ...clientTools];
    const messages: PromptMessage[] = [...turn.context.messages];
    const settings = {
      model: turn.model,
      temperature: mode.options?.temperature ?? agent?.temperature ?? undefined,
      maxTokens: mode.options?.maxTokens ?? agent?.maxTokens ?? undefined,
      ...modelSettingsOf(mode.options),
      signal,
    };
    let usage: Completion['usage'] = null;
    const start = performance.now();
    let firstText = true;
    for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
      // The client's tool_choice holds for the first call; later rounds answer with what the tools returned.
      const toolChoice = round === 0 && clientTools.length ? mode.options?.toolChoice : undefined;
      const request: CompletionRequest = {
        ...settings,
        messages,
        tools: round < MAX_TOOL_ROUNDS ? tools : [],
        ...(toolChoice ? { toolChoice } : {}),
      };
      // Text written in an earlier round and text of this one are separate paragraphs.
      let separator = round > 0 && progress.content.trim() !== '' ? '\n\n' : '';
      const add = (piece: string) => {
        // Nothing a model sends after the cut or the stop is kept, whatever the port does.
        if (signal.aborted) return;
        // NUL cannot be stored in PostgreSQL text nor read back by an import.
        const joined = separator ? separator + piece : piece;
        const text = bounds.admit(
          progress.length,
          joined.includes('\u0000') ? joined.replaceAll('\u0000', '') : joined,
        );
        separator = '';
        if (!text) return;
        if (firstText) {
          firstText = false;
          this.metrics.firstToken(secondsSince(start));
        }
        reasoning.answered();
        progress.append(text);
        mode.onDelta?.(text);
      };
      const think = (piece: string) => {
        if (signal.aborted) return;
        const kept = reasoning.add(piece);
        if (kept) mode.onReasoning?.(kept);
      };
      reasoning.nextRound();
      const completion = await this.call(request, mode, add, think, signal);
      if (!mode.stream && completion.reasoning) think(completion.reasoning);
      if (!mode.stream && completion.content) add(completion.content);
      usage = addUsage(usage, completion.usage);
      if (completion.toolCalls.length === 0 || bounds.reason) return { ...completion, usage };
      // Offered none (the request declared none, or the rounds are spent), it asked for some anyway:
      // nothing is run; its words, if any, are the answer.
      if (request.tools?.length === 0) {
        if (progress.content.trim() !== '') return { ...completion, toolCalls: [], usage };
        throw new ModelUnavailableError(
          round === MAX_TOOL_ROUNDS
            ? `The model kept calling tools after ${MAX_TOOL_ROUNDS} rounds`
            : 'The model asked for a tool when none was offered',
        );
      }
      if (!completion.toolCalls.every((call) => bounds.admitsArguments(call.arguments)))
        return { ...completion, usage };
      // A call of the client's functions (or of a tool of ours it must approve) ends the reply: the client sends the outputs (or its answer) next.
      const theirs = completion.toolCalls.filter((call) => forClient.has(call.name));
      if (theirs.length) {
        for (const call of theirs)
          clientCalls.push({
            callId: call.id.replaceAll('\u0000', '').slice(0, 100),
            name: call.name,
            arguments: call.arguments.replaceAll('\u0000', ''),
          });
        return { ...completion, usage };
      }
      messages.push({ role: 'assistant', content: completion.content, toolCalls: completion.toolCalls });
      for (const call of completion.toolCalls) {
        const result = await this.runTool(this.toolContext(turn, turn.conversation!), call, ownTools);
        const name = call.name.replaceAll('\u0000', '').slice(0, MAX_TOOL_NAME_CHARS) || '(unnamed)';
        const record = { name, arguments: call.arguments.replaceAll('\u0000', ''), result };
        toolRecords.push(record);
        mode.onTool?.(record);
        messages.push({ role: 'tool', toolCallId: call.id, content: result });
      }
    }
    // The last round offers no tools, so a call in it ends the loop above.
    throw new ModelUnavailableError(`The model kept calling tools after ${MAX_TOOL_ROUNDS} rounds`);
  }

  /**
   * Runs a call of a tool of ours that the reply `replyId` made and ended waiting on, now that the
   * client approved it. That reply was offered the tool (its calls are stored, not the client's).
   */
  runApproved(
    actor: Actor,
    conversationId: string,
    replyId: string,
    call: { readonly name: string; readonly arguments: string },
  ): Promise<string> {
    return this.runTool({ actor, conversationId, replyId }, call, [UPDATE_STATE_TOOL, REMEMBER_TOOL, FORGET_TOOL]);
  }

  /** Tools of ours run only in a stored conversation (none is offered otherwise). */
  private toolContext(turn: Generation, conversation: NonNullable<Generation['conversation']>): ToolContext {
    return { actor: { id: conversation.actor }, conversationId: conversation.id, replyId: turn.replyId };
  }

  /** Runs one tool call the model made, among the tools it was offered; any other name is reported back as unknown. */
  private runTool(
    context: ToolContext,
    call: { readonly name: string; readonly arguments: string },
    offered: readonly ToolSpec[],
  ): Promise<string> {
    const { actor, conversationId } = context;
    if (!offered.some((tool) => tool.name === call.name))
      return Promise.resolve(JSON.stringify({ ok: false, error: `unknown tool ${call.name}` }));
    if (call.name === REMEMBER_TOOL.name)
      return runRemember(this.memories, actor, { conversationId, messageId: context.replyId }, call.arguments);
    if (call.name === FORGET_TOOL.name) return runForget(this.memories, actor, call.arguments);
    return runUpdateState(this.conversations, actor, conversationId, call.arguments);
  }

  /** One model call, timed for the metrics whether it answers or fails, and given up STOP_GRACE_MS after `signal` aborts. */
  private async call(
    request: CompletionRequest,
    mode: GenerationMode,
    add: (piece: string) => void,
    think: (piece: string) => void,
    signal: AbortSignal,
  ): Promise<Completion> {
    const start = performance.now();
    try {
      const completion = await giveUpAfterStop(
        mode.stream ? this.llm.stream(request, add, think) : this.llm.complete(request),
        signal,
      );
      this.metrics.modelCall('ok', secondsSince(start));
      return completion;
    } catch (error) {
      this.metrics.modelCall('error', secondsSince(start));
      throw error;
    }
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

/** What generating a reply needs of its turn, stored or not. */
interface Generation {
  readonly replyId: string;
  /** The stored conversation the reply is written in; null for a turn that keeps nothing. */
  readonly conversation: Pick<Conversation, 'id' | 'actor' | 'memory'> | null;
  readonly agent: Agent | null;
  readonly model: string;
  readonly context: Pick<PlannedContext, 'messages' | 'totalTokens'>;
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

/** Who a tool runs for, and the reply that called it. */
interface ToolContext {
  readonly actor: Actor;
  readonly conversationId: string;
  readonly replyId: string;
}

/** The reasoning kept for a reply; only a streamed reply's thinking is timed (a whole answer comes at once). */
function thoughtOf(
  reasoning: ReasoningTrace,
  mode: GenerationMode,
): { reasoning: string | null; reasoningMs: number | null } {
  const result = reasoning.result();
  return mode.stream ? result : { ...result, reasoningMs: null };
}
