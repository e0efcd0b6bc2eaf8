import type { Agent } from '../agents/agent.entity.js';
import type { ReplyError } from '../common/domain-error.js';
import type { ContextMemory, ContextMessage, ContextRecall, ContextSummary } from '../context/context-sources.js';
import type { PlannedContext } from '../context/context-planner.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import type { ItemDraft } from '../conversations/conversation-items.service.js';
import type { FunctionCallRecord, Message, MessageStatus, ToolCallRecord } from '../conversations/message.entity.js';
import type { Thread } from '../conversations/thread.entity.js';

/** What a surface asks for one turn. */
export interface TurnRequest {
  readonly content: string;
  readonly conversationId?: string;
  /** Without `conversationId`: the conversation the actor gave this name (a client's chat id), created under it if none. */
  readonly alias?: string;
  /** Binds a new conversation to this agent; on an existing one it must match its agent. */
  readonly agentId?: string;
  /** A new conversation's model (already checked to be offered); on an existing one it must match its model. */
  readonly model?: string;
  readonly thread?: string;
  /** Replaces the thread's own system prompt, for this and later turns. */
  readonly threadSystem?: string;
  /** Continue from this message of the thread instead of its active leaf (a new branch when it is not the leaf). */
  readonly parentMessageId?: string;
  /** The question replaces this user message: a sibling of it, whose branch becomes the active path. */
  readonly editMessageId?: string;
  /** The client's own id for the question (the AI SDK's message id), kept so the client can name it later. */
  readonly clientMessageId?: string;
  /**
   * Messages stored in order before the reply, instead of `content` alone (the OpenAI surface's
   * input: several messages, function outputs). A last user message is the question; after
   * function outputs the model simply goes on.
   */
  readonly items?: readonly ItemDraft[];
  /** Settings of this turn alone. */
  readonly override?: TurnOverride;
  /** Messages of the actor's past matching the question, found before the turn's transaction (best first). */
  readonly recalled?: readonly ContextRecall[];
}

/** What one turn asks for besides the conversation's own settings. */
export interface TurnOverride {
  /** The model to call instead of the agent's or the default. */
  readonly model?: string;
  /** Instructions for this turn only (a system message after the others), not kept for later turns. */
  readonly instructions?: string;
  /**
   * `auto` (the default): the oldest history is left out to fit the window and the budget.
   * `disabled`: the turn is refused (ContextOverBudgetError) rather than leave any of it out.
   */
  readonly truncation?: 'auto' | 'disabled';
}

/** A turn ready for the model: the question is stored, the reply row exists as `streaming`. */
export interface StartedTurn {
  readonly conversation: Conversation;
  readonly created: boolean;
  readonly agent: Agent | null;
  readonly thread: Thread;
  readonly question: Message;
  readonly reply: Message;
  /** The model to call (the agent's, or the default). */
  readonly model: string;
  /** What the model is sent: planned within the token budget and the window. */
  readonly context: PlannedContext;
  /** The last seq the thread's running summary covered when the turn was planned (0: none). */
  readonly summaryCoversSeq: number;
  /** This turn's own settings, kept for a plan made again. */
  readonly override?: TurnOverride;
  /** What recall found for the question, kept for a plan made again. */
  readonly recalled?: readonly ContextRecall[];
}

export interface ContextPreview {
  readonly model: string;
  readonly encoding: string;
  readonly context: PlannedContext;
  readonly outsideWindow: number;
  readonly summaryCoversSeq: number | null;
}

/** How a reply ended. */
export interface ReplyOutcome {
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly content: string;
  readonly model: string | null;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null;
  readonly error: ReplyError | null;
  /** Tools the model called on the way to this reply. */
  readonly toolCalls?: ToolCallRecord[];
  /** What a reasoning model thought on the way (never replayed), and for how long; null or absent: nothing. */
  readonly reasoning?: string | null;
  readonly reasoningMs?: number | null;
  /** Functions of the client the reply asks to be called (the turn ends there: the client runs them). */
  readonly functionCalls?: FunctionCallRecord[];
  /** Tokens of `content`, for the budget of later turns. */
  readonly tokens?: number;
  /** The long-term memories the reply was given. */
  readonly memoryIds?: readonly string[];
  /** The recalled messages the reply was given. */
  readonly recalledMessageIds?: readonly string[];
}

/** What a turn is planned from, once the store has found (or made) its conversation and thread. */
export interface TurnDraft {
  readonly conversation: Conversation;
  readonly agent: Agent | null;
  /** The thread (one not created yet has no prompt of its own). */
  readonly thread: Pick<Thread, 'name' | 'systemPrompt'>;
  /** History before this seq is replayed. */
  readonly beforeSeq: number;
  /** The question the model answers; null to preview what the next turn would send (or when the stored history ends the input). */
  readonly question: { readonly content: string; readonly tokens: number | null } | null;
  readonly override?: TurnOverride;
  /** Messages of the actor's past matching the question (best first); the plan keeps those not already in the context. */
  readonly recalled?: readonly ContextRecall[];
}

/** Chat's decisions for a turn: the model, and what it is sent. */
export interface TurnPlan {
  readonly model: string;
  readonly context: PlannedContext;
  /** The question's tokens (counted with the model's tokenizer); 0 without a question. */
  readonly questionTokens: number;
  /** The last seq the thread's running summary covers (null: no summary). */
  readonly summaryCoversSeq: number | null;
}

/** The stored history of one conversation that a plan reads, inside the store's transaction. */
export interface HistoryReader {
  summary(thread: string): Promise<ContextSummary | null>;
  /**
   * What a turn sends before its question, in one read: the newest `limit` replayable messages
   * before `beforeSeq` and the pinned messages of the thread's active path before it, each oldest first.
   */
  window(
    thread: string,
    beforeSeq: number,
    limit: number,
  ): Promise<{ recent: ContextMessage[]; pinned: ContextMessage[] }>;
  /** Up to `limit` replayable messages before `beforeSeq` and after `afterSeq`, oldest first (the stretch behind a full window). */
  recent(thread: string, beforeSeq: number, limit: number, afterSeq?: number): Promise<ContextMessage[]>;
  /** The conversation owner's long-term memories for a turn: pinned ones, then those matching `question` (null: pinned only). One query. */
  memories(question: string | null): Promise<ContextMemory[]>;
}

/** How the store asks chat to plan a turn, within the transaction that stores it. */
export type PlanTurn = (draft: TurnDraft, history: HistoryReader) => Promise<TurnPlan>;
