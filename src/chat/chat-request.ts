import type { ReplyError } from '../common/domain-error.js';
import type { FunctionCallRecord, ToolCallRecord } from '../conversations/message.entity.js';
import type { ModelOptions } from './model-conversation.js';
import type { ReplyOutcome, StartedTurn, TurnOverride, TurnRequest } from './turn.js';

/** What a surface asks ChatService for (a question, an edit, a regeneration) and what it is told back. */
export interface ChatRequest {
  readonly message: string;
  readonly conversationId?: string;
  /** Without `conversationId`: the conversation the actor gave this name (a client's chat id), created under it if none. */
  readonly alias?: string;
  /** Starts the conversation with this agent; on an existing conversation it must be its agent. */
  readonly agentId?: string;
  /** The thread to talk in (default `main`). */
  readonly thread?: string;
  /** Sets the thread's own system prompt, for this and its later turns. */
  readonly system?: string;
  /** Continue from this message instead of the thread's active leaf (a new branch when it is not the leaf). */
  readonly parentMessageId?: string;
  readonly options?: ModelOptions;
  /** Messages stored before the reply instead of `message` alone (see TurnRequest.items). */
  readonly items?: TurnRequest['items'];
  /** The model and instructions of this turn alone. */
  readonly override?: TurnOverride;
  /** The client's own id for the message (see TurnRequest.clientMessageId). */
  readonly clientMessageId?: string;
  /** A new conversation's model (one of the offered models); on an existing one it must be its model. */
  readonly model?: string;
}

/** A user message asked again in other words: a sibling of it, answered, on a branch that becomes active. */
interface EditRequest {
  readonly message: string;
  readonly options?: ModelOptions;
  /** The client's own id for the new question (see TurnRequest.clientMessageId). */
  readonly clientMessageId?: string;
}

interface ReplyCutReason {
  readonly code: 'reply_too_long' | 'reply_timeout';
  readonly message: string;
}

/**
 * Why a `truncated` reply (an outcome, or a stored message's status and error) was cut, for
 * the surfaces to report; null for any other status. The stored error's code tells the bound.
 */
export function cutReason(reply: {
  readonly status: string;
  readonly error: ReplyError | null;
}): ReplyCutReason | null {
  if (reply.status !== 'truncated') return null;
  return {
    code: reply.error?.code === 'reply_too_long' ? 'reply_too_long' : 'reply_timeout',
    message: reply.error?.message ?? '',
  };
}

/** What a turn does: ask a question, ask an edited user message again (a sibling of it), or answer a question again. */
export type TurnAsk =
  | { readonly ask: ChatRequest }
  | { readonly edit: EditRequest & { readonly conversationId: string; readonly messageId: string } }
  | { readonly regenerate: RegenerateRequest & { readonly conversationId: string } };

interface RegenerateRequest {
  readonly thread?: string;
  readonly options?: ModelOptions;
  /** Answer the question of this message of the active path (a question, or an answer to it) instead of the thread's last one. */
  readonly messageId?: string;
}

export interface ChatResult {
  readonly conversationId: string;
  readonly agentId: string | null;
  readonly thread: string;
  readonly title: string;
  readonly created: boolean;
  readonly userMessageId: string;
  readonly messageId: string;
  readonly reply: string;
  /** `complete`; `truncated` when a bound cut it (see `reason`); `cancelled` when a stop request ended it early. */
  readonly status: 'complete' | 'truncated' | 'cancelled';
  /** Why a `truncated` reply was cut; null otherwise. */
  readonly reason: ReplyCutReason | null;
  readonly model: string | null;
  readonly usage: ReplyOutcome['usage'];
  /** The client's functions the reply asks to be called (none for most replies). */
  readonly functionCalls: FunctionCallRecord[];
}

/** What a streaming caller is told as the turn goes. */
export interface TurnEvents {
  /** The question and the empty reply are stored; generation starts right after. */
  started(turn: StartedTurn): void;
  delta(text: string): void;
  /** A tool of ours the reply ran (the agent's), with what it returned. */
  tool?(call: ToolCallRecord): void;
  /** A piece of a reasoning model's thinking (kept apart from the reply). */
  reasoning?(text: string): void;
}
