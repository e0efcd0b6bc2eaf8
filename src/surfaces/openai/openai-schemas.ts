import { z } from 'zod';
import { OpenAiError } from './openai-error.js';

/** OpenAI's limits on metadata: at most 16 pairs, keys of at most 64 characters, values of at most 512. */
const metadataSchema = z
  .record(
    z.string().max(64, 'metadata keys are at most 64 characters'),
    z.string().max(512, 'metadata values are at most 512 characters'),
  )
  .refine((m) => Object.keys(m).length <= 16, 'metadata holds at most 16 pairs');

const textPart = z.object({ type: z.enum(['input_text', 'output_text']), text: z.string() }).passthrough();
const unsupportedPart = z
  .object({ type: z.string() })
  .passthrough()
  .transform((part, ctx) => {
    ctx.addIssue({ code: 'custom', message: `content of type ${part.type} is not supported (text only)` });
    return z.NEVER;
  });
const content = z.union([
  z.string(),
  z.array(z.union([textPart, unsupportedPart])).transform((parts) => parts.map((p) => p.text).join('\n')),
]);

const message = z
  .object({
    type: z.literal('message').optional(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content,
    id: z.string().optional(),
    status: z.string().optional(),
  })
  .transform((m) => ({ type: 'message' as const, role: m.role, content: m.content }));
const functionCall = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  arguments: z.string(),
  id: z.string().optional(),
  status: z.string().optional(),
});
const functionCallOutput = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1).max(100),
  output: content,
  id: z.string().optional(),
  status: z.string().optional(),
});

const inputItemSchema = z.union([functionCall, functionCallOutput, message]);
export type InputItem = z.output<typeof inputItemSchema>;

export const createConversationSchema = z
  .object({
    items: z.array(inputItemSchema).max(20, 'items holds at most 20 items').optional().nullable(),
    metadata: metadataSchema.optional().nullable(),
  })
  .strict();

export const updateConversationSchema = z.object({ metadata: metadataSchema.nullable() }).strict();

export const createItemsSchema = z
  .object({ items: z.array(inputItemSchema).min(1).max(20, 'items holds at most 20 items') })
  .strict();

const order = z.enum(['asc', 'desc']);
const limit = z.coerce.number().int().min(1, 'limit is between 1 and 100').max(100, 'limit is between 1 and 100');
/** OpenAI's `include` values (ResponseIncludable): each names extra data of item kinds this service never holds, so none changes a listed item. */
const INCLUDABLE = new Set([
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
]);
const includeQuery = z
  .union([z.string(), z.array(z.string()).max(20, 'include holds at most 20 values')])
  .transform((v) => (typeof v === 'string' ? [v] : v))
  .refine((values) => values.every((v) => INCLUDABLE.has(v)), `include takes only ${[...INCLUDABLE].join(', ')}`);
export const listQuerySchema = z.preprocess(
  // The SDK sends arrays with brackets (`include[]=...`); the query parser keeps the key as written.
  (query) => {
    if (!query || typeof query !== 'object' || !('include[]' in query)) return query;
    const { 'include[]': include, ...rest } = query as Record<string, unknown>;
    return { ...rest, include };
  },
  z
    .object({
      limit: limit.default(20),
      order: order.default('desc'),
      after: z.string().max(200).optional(),
      include: includeQuery.optional(),
    })
    .strict(),
);

/** GET /v1/responses/{id}: the response, or with `stream=true` its events replayed and followed, after `starting_after`. */
export const retrieveQuerySchema = z.preprocess(
  (query) => {
    if (!query || typeof query !== 'object' || !('include[]' in query)) return query;
    const { 'include[]': include, ...rest } = query as Record<string, unknown>;
    return { ...rest, include };
  },
  z
    .object({
      stream: z.enum(['true', 'false']).optional(),
      starting_after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      include_obfuscation: z.enum(['true', 'false']).optional(),
      include: z.union([z.string(), z.array(z.string())]).optional(),
    })
    .strict(),
);

const functionTool = z.object({
  type: z.literal('function'),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a function name is 1 to 64 letters, digits, _ or -'),
  description: z.string().max(4000).optional().nullable(),
  parameters: z.record(z.string(), z.unknown()).optional().nullable(),
  strict: z.boolean().optional().nullable(),
});

/** Structured outputs: the reply's text as any JSON object, or as JSON matching a schema (chat completions' `response_format`). */
const textFormat = z.union([
  z.object({ type: z.literal('text') }).strict(),
  z.object({ type: z.literal('json_object') }).strict(),
  z
    .object({
      type: z.literal('json_schema'),
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a format name is 1 to 64 letters, digits, _ or -'),
      schema: z.record(z.string(), z.unknown()),
      description: z.string().max(4000).optional(),
      strict: z.boolean().optional().nullable(),
    })
    .strict(),
]);
export type TextFormat = z.output<typeof textFormat>;
const otherTool = z
  .object({ type: z.string() })
  .passthrough()
  .transform((tool, ctx) => {
    ctx.addIssue({ code: 'custom', message: `tools of type ${tool.type} are not supported (function tools only)` });
    return z.NEVER;
  });

export const createResponseSchema = z
  .object({
    model: z.string().min(1).max(200).optional(),
    input: z.union([z.string(), z.array(inputItemSchema).min(1).max(100)]).optional(),
    instructions: z.string().max(100_000).optional().nullable(),
    conversation: z
      .union([z.string(), z.object({ id: z.string() })])
      .optional()
      .nullable(),
    previous_response_id: z.string().optional().nullable(),
    store: z.boolean().optional().nullable(),
    stream: z.boolean().optional().nullable(),
    temperature: z.number().min(0).max(2).optional().nullable(),
    max_output_tokens: z.number().int().min(1).optional().nullable(),
    metadata: metadataSchema.optional().nullable(),
    tools: z
      .array(z.union([functionTool, otherTool]))
      .max(128)
      .optional(),
    tool_choice: z
      .union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), name: z.string() })])
      .optional()
      .nullable(),
    parallel_tool_calls: z.boolean().optional().nullable(),
    top_p: z.number().min(0).max(1).optional().nullable(),
    user: z.string().optional(),
    safety_identifier: z.string().optional(),
    prompt_cache_key: z.string().optional(),
    stream_options: z.unknown().optional(),
    text: z
      .object({ format: textFormat.optional().nullable(), verbosity: z.null().optional() })
      .strict()
      .optional()
      .nullable(),
    truncation: z.enum(['auto', 'disabled']).optional().nullable(),
    include: z.array(z.string()).max(0).optional().nullable(),
    background: z.boolean().optional().nullable(),
  })
  .strict();

/**
 * Parameters of OpenAI's Responses API that a chat-completions model cannot honour: asking for
 * any of them (a value other than null, false or an empty list) is refused as unsupported rather
 * than ignored. The path names the parameter in the 400.
 */
const UNSUPPORTED = [
  'include',
  'text.verbosity',
  'reasoning',
  'top_logprobs',
  'max_tool_calls',
  'service_tier',
  'prompt',
  'prompt_cache_retention',
  'context_management',
];

/** Refuses the first unsupported parameter asked for: 400 `unsupported_parameter` naming it. */
export function refuseUnsupported(body: unknown): void {
  for (const path of UNSUPPORTED) {
    let value: unknown = body;
    for (const key of path.split('.'))
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    const asked =
      value !== undefined && value !== null && value !== false && !(Array.isArray(value) && value.length === 0);
    if (asked)
      throw OpenAiError.invalid(
        `Unsupported parameter: '${path}' is not supported by this service.`,
        path,
        'unsupported_parameter',
      );
  }
}
export type CreateResponseBody = z.output<typeof createResponseSchema>;

/** The body parsed with `schema`, or a 400 in OpenAI's shape naming the first offending parameter. */
export function parseOrRefuse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param =
    issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('') ||
    null;
  const message =
    issue.code === 'unrecognized_keys'
      ? `Unknown parameter: '${[param, issue.keys[0]].filter(Boolean).join('.')}'.`
      : `Invalid '${param ?? 'body'}': ${issue.message}`;
  throw OpenAiError.invalid(
    message,
    issue.code === 'unrecognized_keys' ? [param, issue.keys[0]].filter(Boolean).join('.') : param,
    issue.code === 'unrecognized_keys' ? 'unknown_parameter' : 'invalid_value',
  );
}
