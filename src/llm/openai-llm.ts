import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { readCompletionChunks } from './completion-chunks.js';
import { ModelUnavailableError } from './llm.errors.js';
import { ModelCall } from './model-call.js';
import type { Completion, CompletionRequest, LlmPort, ToolCall } from './llm.port.js';
import { GrowingText } from '../common/growing-text.js';
import { ToolCallAssembler, toWireMessages, toWireResponseFormat, toWireTools } from './openai-wire.js';

/**
 * The thinking of a reasoning model in a message or a delta: vLLM and DeepSeek send it as
 * `reasoning_content`, Ollama (and OpenRouter) as `reasoning`; neither is in the SDK's types.
 */
function reasoningOf(part: object | null | undefined): string {
  const fields = part as { reasoning_content?: unknown; reasoning?: unknown } | null | undefined;
  const value = fields?.reasoning_content ?? fields?.reasoning;
  return typeof value === 'string' ? value : '';
}

/** Where the SDK goes without LLM_BASE_URL. */
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

interface OpenAiLlmOptions {
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

/**
 * Any OpenAI-compatible chat completions server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio)
 * through the official SDK. Every failure leaves as a ModelUnavailableError, ModelTimeoutError
 * or ModelCancelledError, whatever threw it (SDK error, network error, malformed body).
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
    // The whole call, the SDK's retries included, must end within the timeout.
    const call = new ModelCall(this.options.timeoutMs, request.signal, this.options.baseUrl ?? DEFAULT_BASE_URL);
    try {
      const response = await this.client.chat.completions.create(
        { ...this.body(request), stream: false },
        { signal: call.signal },
      );
      const message = response.choices?.[0]?.message;
      const content = typeof message?.content === 'string' ? message.content : '';
      const toolCalls: ToolCall[] = (message?.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
      );
      if (content.trim() === '' && toolCalls.length === 0)
        throw new ModelUnavailableError('The model returned an empty reply');
      const usage = response.usage;
      return {
        content,
        model: response.model || this.body(request).model,
        usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : null,
        toolCalls,
        ...(reasoningOf(message) ? { reasoning: reasoningOf(message) } : {}),
      };
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  async stream(
    request: CompletionRequest,
    onDelta: (text: string) => void,
    onReasoning?: (text: string) => void,
  ): Promise<Completion> {
    // Streaming replies can legitimately take long: the timeout bounds the wait for the first
    // piece and every silence between pieces.
    const call = new ModelCall(this.options.timeoutMs, request.signal, this.options.baseUrl ?? DEFAULT_BASE_URL);
    let model = this.body(request).model;
    const content = new GrowingText();
    let blank = true;
    let finished = false;
    let usage: Completion['usage'] = null;
    const toolCalls = new ToolCallAssembler();
    try {
      // The SDK makes the request and answers its errors; its body is read by readCompletionChunks (why: there).
      const response = await this.client.chat.completions
        .create(
          { ...this.body(request), stream: true, stream_options: { include_usage: true } },
          { signal: call.signal },
        )
        .asResponse();
      await readCompletionChunks(
        response,
        (chunk) => {
          call.restart();
          if (chunk.model) model = chunk.model;
          if (chunk.usage)
            usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
          const choice = chunk.choices?.[0];
          const thought = reasoningOf(choice?.delta);
          if (thought) onReasoning?.(thought);
          const text = choice?.delta?.content;
          if (text) {
            content.append(text);
            blank &&= text.trim() === '';
            onDelta(text);
          }
          toolCalls.add(choice?.delta?.tool_calls);
          if (choice?.finish_reason) finished = true;
        },
        call.signal,
      );
      // An aborted stream ends its loop quietly: find out why it ended before calling it done.
      if (call.signal.aborted) throw call.signal.reason ?? new Error('aborted');
      if (!finished) throw new ModelUnavailableError("The model's stream ended before the reply was finished");
      if (blank && toolCalls.result.length === 0) throw new ModelUnavailableError('The model returned an empty reply');
      return { content: content.toString(), model, usage, toolCalls: toolCalls.result };
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  async listModels(): Promise<string[]> {
    // A short call, apart from the chat timeout: the list is a convenience.
    const call = new ModelCall(
      Math.min(this.options.timeoutMs, 5_000),
      undefined,
      this.options.baseUrl ?? DEFAULT_BASE_URL,
    );
    try {
      const ids: string[] = [];
      for await (const model of this.client.models.list({ signal: call.signal, maxRetries: 0 })) {
        if (typeof model.id === 'string') ids.push(model.id);
        if (ids.length >= 1000) break;
      }
      return ids;
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  private body(request: CompletionRequest): ChatCompletionCreateParamsBase {
    const body: ChatCompletionCreateParamsBase = {
      model: request.model ?? this.defaultModel,
      messages: toWireMessages(request.messages),
    };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.topP !== undefined) body.top_p = request.topP;
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.responseFormat) body.response_format = toWireResponseFormat(request.responseFormat);
    if (request.tools?.length) body.tools = toWireTools(request.tools);
    if (request.tools?.length && request.parallelToolCalls !== undefined)
      body.parallel_tool_calls = request.parallelToolCalls;
    if (request.tools?.length && request.toolChoice !== undefined) {
      body.tool_choice =
        typeof request.toolChoice === 'string'
          ? request.toolChoice
          : { type: 'function', function: { name: request.toolChoice.name } };
    }
    return body;
  }
}
