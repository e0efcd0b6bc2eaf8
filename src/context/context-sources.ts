/**
 * What planning a context needs, described here so that context/ depends on no other domain
 * module: conversations' and agents' rows satisfy these shapes as they are.
 */

/** The parts of an agent that shape what the model is sent. */
export interface ContextAgent {
  readonly systemPrompt: string | null;
  /** Overrides CONTEXT_TOKEN_BUDGET when set. */
  readonly contextTokenBudget: number | null;
  /** Built-in tools the agent enables; `update_state` changes how the state is shown. */
  readonly tools: readonly string[];
}

/** A stored message that may be replayed; `tokens` is null when it was never counted. */
export interface ContextMessage {
  readonly seq: number;
  readonly role: string;
  readonly content: string;
  readonly tokens: number | null;
  /** On an assistant message: the client's functions it asked to be called. */
  readonly functionCalls?: ReadonlyArray<{
    readonly callId: string;
    readonly name: string;
    readonly arguments: string;
  }> | null;
  /** On a tool message: the call it answers. */
  readonly callId?: string | null;
}

/** A thread's running summary: its text and the last seq it covers. */
export interface ContextSummary {
  readonly content: string;
  readonly coversSeq: number;
}

export interface ContextSources {
  readonly model: string;
  readonly agent: ContextAgent | null;
  /** The thread's own prompt (a thread not created yet has none). */
  readonly thread: { readonly systemPrompt: string | null } | null;
  readonly state: Readonly<Record<string, unknown>>;
  readonly summary: ContextSummary | null;
  /** Replayable messages of the thread, oldest first: the window, and (rolling) those the summary does not cover yet. */
  readonly history: readonly ContextMessage[];
  readonly newMessage: { readonly content: string; readonly tokens: number } | null;
  /** Instructions of this turn alone, after the other system prompts. */
  readonly instructions?: string | null;
  /** Pinned messages of the active path (replayable ones), oldest first. */
  readonly pinned?: readonly ContextMessage[];
  /** Long-term memories offered to the turn (pinned first, then best match); null or absent: memory is off. */
  readonly memories?: readonly ContextMemory[] | null;
  /** The model may forget memories by id (the forget tool is offered): the ids are shown. */
  readonly memoryIdsShown?: boolean;
  /** Messages of the actor's past that match the new message (best first); null or absent: recall is off. */
  readonly recalled?: readonly ContextRecall[] | null;
}

/** A message of the actor's past recalled into a turn, with its neighbour turn for context. */
export interface ContextRecall {
  readonly id: string;
  readonly conversationId: string;
  readonly seq: number;
  readonly conversationTitle: string;
  readonly createdAt: Date;
  readonly role: 'user' | 'assistant';
  readonly content: string;
  /** The turn answering it (for a question) or asked before it (for an answer); null when there is none. */
  readonly neighbour: {
    readonly role: 'user' | 'assistant';
    readonly content: string;
    readonly before: boolean;
  } | null;
  /** The tokens of the content and the neighbour's, as counted when they were stored (null: count them now). */
  readonly tokens?: number | null;
}

/** A long-term memory a turn may read. */
export interface ContextMemory {
  readonly id: string;
  readonly text: string;
  /** Tokens of the text, counted when it was written (null or absent: counted now). */
  readonly tokens?: number | null;
}
