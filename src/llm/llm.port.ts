/** What the chat domain needs from a language model, whatever serves it. */
export interface LlmPort {
  /** Shown in logs and stored on replies when a request names no model. */
  readonly defaultModel: string;
  /** Resolves with the whole reply, or rejects with a ModelError (llm.errors.ts). */
  complete(request: CompletionRequest): Promise<Completion>;
  /**
   * Streams the reply: `onDelta` receives each piece of text as it comes, and the promise
   * resolves with the whole reply once the model has finished. Rejects with a ModelError;
   * the text delivered so far is then the partial reply.
   */
  stream(request: CompletionRequest, onDelta: (text: string) => void): Promise<Completion>;
}

export const LLM_PORT = Symbol('LLM_PORT');

export interface PromptMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface CompletionRequest {
  readonly messages: readonly PromptMessage[];
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Aborting it cancels the call: it rejects with ModelCancelledError. */
  readonly signal?: AbortSignal;
}

export interface Completion {
  readonly content: string;
  readonly model: string;
  /** Null when the server did not report usage. */
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null;
}
