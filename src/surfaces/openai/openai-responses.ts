import type { ChatRequest } from '../../chat/chat-request.js';
import type { FunctionCallRecord, Message, MessageStatus } from '../../conversations/message.entity.js';
import type { ResponseRequest } from '../../conversations/response-record.entity.js';
import type { ResponseFormat, ToolChoice, ToolSpec } from '../../llm/llm.port.js';
import { unixSeconds } from './openai-conversations.js';
import { OpenAiError } from './openai-error.js';
import { conversationId, functionCallItemId, messageItemId, requiredConversationId, responseId } from './openai-ids.js';
import { draftsOf, itemStatus, outputText } from './openai-items.js';
import type { CreateResponseBody, TextFormat } from './openai-schemas.js';
import { storedUsage } from '../../conversations/stored-usage.js';

/** A reply as a response's parts: what the Response object is built from, whether just made or read back. */
export interface ReplyView {
  readonly messageId: string;
  readonly conversationId: string;
  readonly createdAt: Date;
  readonly status: MessageStatus;
  readonly content: string;
  readonly functionCalls: readonly FunctionCallRecord[];
  readonly model: string | null;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** A stored reply as a response's parts. */
export function storedReplyView(message: Message): ReplyView {
  const usage = storedUsage(message);
  const error = message.errorCode ? { code: message.errorCode, message: message.errorMessage ?? '' } : null;
  return {
    messageId: message.id,
    conversationId: message.conversationId,
    createdAt: message.createdAt,
    status: message.status,
    content: message.content,
    functionCalls: message.functionCalls ?? [],
    model: message.model,
    usage,
    error,
  };
}

/** A response's status from its reply's. */
export function responseStatus(
  status: MessageStatus,
): 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled' {
  if (status === 'streaming') return 'in_progress';
  if (status === 'complete') return 'completed';
  if (status === 'truncated') return 'incomplete';
  return status;
}

/** The output items of a reply: its text (when it has any, or nothing else) and each call of the client's functions. */
function outputOf(
  reply: Pick<ReplyView, 'messageId' | 'status' | 'content' | 'functionCalls'>,
  withText = true,
): Array<Record<string, unknown>> {
  const calls = reply.functionCalls.map((c, i) => ({
    type: 'function_call',
    id: functionCallItemId(reply.messageId, i),
    call_id: c.callId,
    name: c.name,
    arguments: c.arguments,
    status: 'completed',
  }));
  const text =
    withText && (reply.content !== '' || (calls.length === 0 && reply.status !== 'failed'))
      ? [
          {
            type: 'message',
            id: messageItemId(reply.messageId),
            role: 'assistant',
            status: itemStatus(reply.status),
            content: [outputText(reply.content)],
          },
        ]
      : [];
  return [...text, ...calls];
}

/** OpenAI's Response object (the fields its SDK reads), for a reply and the request it answered. */
export function toOpenAiResponse(reply: ReplyView, request: ResponseRequest | null, output = outputOf(reply)) {
  const status = responseStatus(reply.status);
  const usage = reply.usage
    ? {
        input_tokens: reply.usage.promptTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: reply.usage.completionTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
      }
    : null;
  return {
    id: responseId(reply.messageId),
    object: 'response' as const,
    created_at: unixSeconds(reply.createdAt),
    status,
    background: request?.background ?? false,
    error: status === 'failed' ? { code: 'server_error', message: reply.error?.message ?? 'The model failed' } : null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request?.instructions ?? null,
    max_output_tokens: request?.maxOutputTokens ?? null,
    model: reply.model ?? '',
    output,
    parallel_tool_calls: request?.parallelToolCalls ?? true,
    previous_response_id: request?.previousResponseId ?? null,
    // A reply made on another surface belongs to its conversation all the same.
    conversation: !request || request.inConversation ? { id: conversationId(reply.conversationId) } : null,
    store: true,
    temperature: request?.temperature ?? null,
    text: { format: request?.textFormat ?? { type: 'text' } },
    tool_choice: request?.toolChoice ?? 'auto',
    tools: request?.tools ?? [],
    top_p: request?.topP ?? null,
    // Without truncation disabled, the oldest history is left out to fit: that is "auto".
    truncation: request?.truncation ?? 'auto',
    usage,
    metadata: request?.metadata ?? {},
  };
}

/** What a request for a response asks of a chat turn, once its `previous_response_id` is resolved to a reply. */
export interface TurnAsk {
  readonly chat: ChatRequest;
  readonly record: ResponseRequest;
}

/**
 * Maps a request body to a chat turn: in `conversation` (after its active leaf), after the reply
 * `previous` (its branch), or in a new conversation; `agentId` when `model` names an agent.
 */
export function turnOf(
  body: CreateResponseBody,
  previous: { conversationId: string; messageId: string } | null,
  agentId: string | null,
): TurnAsk {
  if (body.input === undefined)
    throw OpenAiError.invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const items =
    typeof body.input === 'string' ? [{ role: 'user' as const, content: body.input }] : draftsOf(body.input);
  const conversation = body.conversation
    ? requiredConversationId(
        typeof body.conversation === 'string' ? body.conversation : body.conversation.id,
        'conversation',
      )
    : undefined;
  const tools: ToolSpec[] = (body.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.parameters ?? { type: 'object', properties: {} },
    ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
  }));
  const format = body.text?.format ?? undefined;
  const choice = body.tool_choice ?? undefined;
  const toolChoice: ToolChoice | undefined =
    choice === undefined ? undefined : typeof choice === 'string' ? choice : { name: choice.name };
  const chat: ChatRequest = {
    message: '',
    items,
    conversationId: conversation ?? previous?.conversationId,
    parentMessageId: previous?.messageId,
    agentId: agentId ?? undefined,
    override: {
      model: agentId ? undefined : (body.model ?? undefined),
      instructions: body.instructions ?? undefined,
      truncation: body.truncation ?? undefined,
    },
    options: {
      temperature: body.temperature ?? undefined,
      topP: body.top_p ?? undefined,
      responseFormat: responseFormatOf(format),
      parallelToolCalls: body.parallel_tool_calls ?? undefined,
      maxTokens: body.max_output_tokens ?? undefined,
      clientTools: tools,
      toolChoice,
    },
  };
  const record: ResponseRequest = {
    instructions: body.instructions ?? null,
    metadata: body.metadata ?? null,
    previousResponseId: previous ? responseId(previous.messageId) : null,
    inConversation: conversation !== undefined,
    temperature: body.temperature ?? null,
    maxOutputTokens: body.max_output_tokens ?? null,
    tools: body.tools ?? [],
    toolChoice: body.tool_choice ?? 'auto',
    topP: body.top_p ?? null,
    parallelToolCalls: body.parallel_tool_calls ?? null,
    textFormat: format ?? null,
    truncation: body.truncation ?? 'auto',
    inputCount: items.length,
    ...(body.background ? { background: true } : {}),
  };
  return { chat, record };
}

/** `text.format` as the model's response format (none for plain text). */
function responseFormatOf(format: TextFormat | undefined): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: format.name,
    schema: format.schema,
    description: format.description,
    strict: format.strict ?? undefined,
  };
}
