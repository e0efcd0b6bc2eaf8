/**
 * OpenAPI of the AI SDK UI message stream (protocol v1) as this surface writes it: every event is
 * a `data:` line without an `event:` line (so its name is `message`), holding one UIMessageChunk
 * as JSON; the last one's data is `[DONE]`, which is not JSON (`x-sse-end`). The chunk schemas
 * are those of the `ai` package (uiMessageChunkSchema: loose objects, so extra keys are allowed),
 * for the chunk types the server writes (ui-message-stream.ts).
 */
const TYPE = (type: string) => ({ type: 'string', enum: [type] });
const METADATA = {
  type: 'object',
  description: "The reply's metadata (`message.metadata` on the client), merged from `start` and the end.",
  properties: {
    conversationId: { type: 'string', format: 'uuid' },
    thread: { type: 'string' },
    model: { type: 'string', nullable: true },
    status: { type: 'string', enum: ['streaming', 'complete', 'truncated', 'failed', 'cancelled'] },
    usage: {
      type: 'object',
      nullable: true,
      properties: { promptTokens: { type: 'integer' }, completionTokens: { type: 'integer' } },
      required: ['promptTokens', 'completionTokens'],
    },
    error: {
      type: 'object',
      nullable: true,
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
  },
  required: ['conversationId'],
};
const chunk = (type: string, properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties: { type: TYPE(type), ...properties },
  required: ['type', ...required],
});

const UI_MESSAGE_CHUNKS = [
  chunk('start', {
    messageId: {
      type: 'string',
      description:
        "The stored reply's id (a uuid), or the id of the assistant message a reply going on after tool outputs continues.",
    },
    messageMetadata: METADATA,
  }),
  chunk('start-step'),
  chunk('text-start', { id: { type: 'string' } }, ['id']),
  chunk('text-delta', { id: { type: 'string' }, delta: { type: 'string' } }, ['id', 'delta']),
  chunk('text-end', { id: { type: 'string' } }, ['id']),
  {
    type: 'object',
    description: '`data-state`: the session state after update_state.',
    properties: {
      type: { type: 'string', pattern: '^data-' },
      id: { type: 'string' },
      data: { type: 'object', additionalProperties: true },
      transient: { type: 'boolean' },
    },
    required: ['type', 'data'],
  },
  chunk('tool-input-start', { toolCallId: { type: 'string' }, toolName: { type: 'string' } }, [
    'toolCallId',
    'toolName',
  ]),
  {
    ...chunk(
      'tool-input-available',
      {
        toolCallId: { type: 'string' },
        toolName: { type: 'string' },
        input: { description: "The call's input (its JSON arguments, parsed)." },
      },
      ['toolCallId', 'toolName'],
    ),
    description:
      '`tool-input-available`: a tool call, of the agent (its output follows) or of a tool the client declared (the reply ends waiting for its output).',
  },
  chunk('tool-approval-request', { approvalId: { type: 'string' }, toolCallId: { type: 'string' } }, [
    'approvalId',
    'toolCallId',
  ]),
  chunk(
    'tool-output-available',
    { toolCallId: { type: 'string' }, output: { description: 'What the tool returned (JSON, parsed when it is).' } },
    ['toolCallId'],
  ),
  chunk('tool-output-denied', { toolCallId: { type: 'string' } }, ['toolCallId']),
  chunk('finish-step'),
  chunk('finish', {
    finishReason: { type: 'string', enum: ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'] },
    messageMetadata: METADATA,
  }),
  chunk('message-metadata', { messageMetadata: METADATA }, ['messageMetadata']),
  chunk('abort', { reason: { type: 'string' } }),
  chunk('error', { errorText: { type: 'string' } }, ['errorText']),
];

/** The media type object of a UI message stream answer. */
export const UI_STREAM_MEDIA = {
  schema: {
    type: 'string',
    description: 'Server-sent events, each `data: <UIMessageChunk JSON>` (see x-sse-events), the last `data: [DONE]`.',
  },
  'x-sse-events': {
    message: {
      type: 'object',
      properties: { event: { type: 'string', enum: ['message'] }, data: { oneOf: UI_MESSAGE_CHUNKS } },
      required: ['event', 'data'],
    },
  },
  'x-sse-end': '[DONE]',
};
