/** What the chat domain needs from a language model, whatever serves it. */
export interface LlmPort {
  /** Shown in logs and stored on replies when a request names no model. */
  readonly defaultModel: string;
  /** Resolves with the whole reply, or rejects with a ModelError (llm.errors.ts). */
  complete(request: CompletionRequest): Promise<Completion>;
  /**
   * Streams the reply: `onDelta` receives each piece of text as it comes, and the promise
   * resolves with the whole reply once the model has finished. Rejects with a ModelError;
   * the text delivered so far is then the partial reply. A reasoning model's thinking
   * (`reasoning_content` or `reasoning` deltas) goes to `onReasoning`, never to `onDelta`.
   */
  stream(
    request: CompletionRequest,
    onDelta: (text: string) => void,
    onReasoning?: (text: string) => void,
  ): Promise<Completion>;
  /** The models the server offers (GET /v1/models); absent where there is no server to ask. Rejects when it does not answer. */
  listModels?(): Promise<string[]>;
}

export const LLM_PORT = Symbol('LLM_PORT');

export type PromptMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A function the model may call (OpenAI tool calling). */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
  /** Whether the model must keep to `parameters` exactly (structured outputs); unset: the server's default. */
  readonly strict?: boolean;
}

/** The shape the reply's text must take: any JSON object, or JSON matching a schema (structured outputs). */
export type ResponseFormat =
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly name: string;
      readonly schema: Record<string, unknown>;
      readonly description?: string;
      readonly strict?: boolean;
    };

export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** A call the model asked for; `arguments` is the JSON text it wrote. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface CompletionRequest {
  readonly messages: readonly PromptMessage[];
  readonly model?: string;
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  /** Plain text when unset. */
  readonly responseFormat?: ResponseFormat;
  /** Whether the model may call several tools at once (only sent with tools). */
  readonly parallelToolCalls?: boolean;
  /** Tools the model may call; it then answers with `toolCalls` instead of (or besides) text. */
  readonly tools?: readonly ToolSpec[];
  /** Whether the model must (`required`, or this one function), may (`auto`, the default) or must not call tools. */
  readonly toolChoice?: ToolChoice;
  /** Aborting it cancels the call: it rejects with ModelCancelledError. */
  readonly signal?: AbortSignal;
}

export interface Completion {
  readonly content: string;
  readonly model: string;
  /** Null when the server did not report usage. */
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null;
  /** Calls the model asked for; empty when it simply answered. */
  readonly toolCalls: readonly ToolCall[];
  /** A reasoning model's thinking, of a whole (not streamed) answer; streamed thinking went to `onReasoning`. */
  readonly reasoning?: string;
}
