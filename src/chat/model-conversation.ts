import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import type { Agent } from '../agents/agent.entity.js';
import type { PlannedContext } from '../context/context-planner.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { FunctionCallRecord, ToolCallRecord } from '../conversations/message.entity.js';
import { ModelUnavailableError } from '../llm/llm.errors.js';
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
import { Metrics, NO_METRICS, secondsSince } from '../metrics/metrics.js';
import { MemoryService } from '../memory/memory.service.js';
import { addUsage, giveUpAfterStop, modelSettingsOf } from './model-call.js';
import type { ReplyBounds } from './reply-bounds.js';
import type { ReplyProgress } from './reply-progress.js';
import { runUpdateState, UPDATE_STATE_TOOL } from './tools/update-state.tool.js';
import { FORGET_TOOL, REMEMBER_TOOL, runForget, runRemember } from './tools/memory.tools.js';
import { memoryModeOf, memoryToolsOf } from './memory-mode.js';
import type { ReasoningTrace } from './reasoning-trace.js';

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

/** How many times one reply may call tools before the model must answer in words. */
const MAX_TOOL_ROUNDS = 4;

/** Tool names come from the model server; stored names fit the model column (200). */
const MAX_TOOL_NAME_CHARS = 200;

/** What generating a reply needs of its turn, stored or not. */
export interface Generation {
  readonly replyId: string;
  /** The stored conversation the reply is written in; null for a turn that keeps nothing. */
  readonly conversation: Pick<Conversation, 'id' | 'actor' | 'memory'> | null;
  readonly agent: Agent | null;
  readonly model: string;
  readonly context: Pick<PlannedContext, 'messages' | 'totalTokens'>;
}

/** Who a tool runs for, and the reply that called it. */
interface ToolContext {
  readonly actor: Actor;
  readonly conversationId: string;
  readonly replyId: string;
}

/**
 * The model's side of a reply: calls it with the planned context, runs the tools of ours it asks
 * for (update_state, remember, forget) in bounded rounds and calls it again, until it answers in
 * words, asks for a function of the client's, or reaches a bound. What it writes goes to the
 * reply's progress; how the reply ends is ReplyGenerator's.
 */
@Injectable()
export class ModelConversation {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly memories: MemoryService,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly metrics: Metrics = NO_METRICS,
  ) {}

  /** Calls the model, runs the tools it asks for, and calls it again, until it answers in words. */
  async converse(
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

  /** One model call, timed for the metrics whether it answers or fails, and given up MODEL_STOP_GRACE_MS after `signal` aborts. */
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
        this.config.modelStopGraceMs,
      );
      this.metrics.modelCall('ok', secondsSince(start));
      return completion;
    } catch (error) {
      this.metrics.modelCall('error', secondsSince(start));
      throw error;
    }
  }
}
