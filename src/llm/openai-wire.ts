import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONObject, ResponseFormatJSONSchema } from 'openai/resources/shared';
import type { PromptMessage, ResponseFormat, ToolCall, ToolSpec } from './llm.port.js';

/** Our prompt messages in the wire format of the chat completions API. */
export function toWireMessages(messages: readonly PromptMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
    return { role: m.role, content: m.content };
  });
}

export function toWireTools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      ...(t.strict !== undefined ? { strict: t.strict } : {}),
    },
  }));
}

export function toWireResponseFormat(format: ResponseFormat): ResponseFormatJSONObject | ResponseFormatJSONSchema {
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, description, strict } = format;
  return {
    type: 'json_schema',
    json_schema: {
      name,
      schema,
      ...(description !== undefined ? { description } : {}),
      ...(strict !== undefined ? { strict } : {}),
    },
  };
}

/**
 * Streamed tool calls arrive in fragments keyed by index: the first names the call, the
 * following ones append to its arguments.
 */
export class ToolCallAssembler {
  private readonly calls: Array<{ id: string; name: string; arguments: string }> = [];

  add(
    fragments:
      ReadonlyArray<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> | undefined,
  ): void {
    for (const f of fragments ?? []) {
      const call = (this.calls[f.index] ??= { id: '', name: '', arguments: '' });
      if (f.id) call.id = f.id;
      if (f.function?.name) call.name += f.function.name;
      if (f.function?.arguments) call.arguments += f.function.arguments;
    }
  }

  get result(): ToolCall[] {
    return this.calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` }));
  }
}
