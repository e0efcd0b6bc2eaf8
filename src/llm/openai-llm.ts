import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { ModelTimeoutError, ModelUnavailableError } from './llm.errors.js';
import type { Completion, CompletionRequest, LlmPort } from './llm.port.js';

export interface OpenAiLlmOptions {
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

/**
 * Any OpenAI-compatible chat completions server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio)
 * through the official SDK. Every failure leaves as a ModelUnavailableError or
 * ModelTimeoutError, whatever threw it (SDK error, network error, malformed body).
 */
export class OpenAiLlm implements LlmPort {
  readonly defaultModel: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiLlmOptions) {
    this.defaultModel = options.model;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      maxRetries: options.maxRetries,
      timeout: options.timeoutMs,
    });
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const model = request.model ?? this.defaultModel;
    // The SDK's timeout applies per attempt; this deadline bounds the whole call, retries included.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    const body: ChatCompletionCreateParamsNonStreaming = { model, messages: [...request.messages] };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    try {
      const response = await this.client.chat.completions.create(body, { signal });
      const content = response.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '') {
        throw new ModelUnavailableError('The model returned an empty reply');
      }
      const usage = response.usage;
      return {
        content,
        model: response.model || model,
        usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : null,
      };
    } catch (error) {
      throw toModelError(error, deadline.signal.aborted, this.options.timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }
}

function toModelError(error: unknown, deadlinePassed: boolean, timeoutMs: number): ModelUnavailableError {
  if (deadlinePassed || error instanceof APIConnectionTimeoutError) return new ModelTimeoutError(timeoutMs);
  if (error instanceof ModelUnavailableError) return error;
  if (error instanceof APIUserAbortError) return new ModelUnavailableError('The model call was cancelled');
  if (error instanceof APIConnectionError) return new ModelUnavailableError('Could not reach the model server');
  if (error instanceof APIError && (error.status === 401 || error.status === 403)) {
    // Its text may quote part of our key: say only what the operator must fix.
    return new ModelUnavailableError(`The model server refused our credentials (${error.status}); check LLM_API_KEY`, error.status);
  }
  if (error instanceof APIError && error.status !== undefined) {
    // The SDK prefixes its message with the status; say it once.
    const detail = brief(error.message.replace(new RegExp(`^${error.status}\\s*`), '')) || 'no details';
    return new ModelUnavailableError(`The model server answered ${error.status}: ${detail}`, error.status);
  }
  // Malformed bodies, broken connections mid-response and the like arrive as plain errors.
  const reason = error instanceof Error ? error.message : String(error);
  return new ModelUnavailableError(`The model call failed: ${brief(reason)}`);
}

/** Upstream error texts can be long (or echo a prompt): keep a short, single-line excerpt. */
function brief(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
