import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as parsed JSON. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    stream?: boolean;
    temperature?: number;
    [key: string]: unknown;
  };
}

type Usage = { prompt_tokens: number; completion_tokens: number };

/** The delta field a reasoning model's thinking comes in (default `reasoning_content`). */
type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * What the fake does with the next chat completion request. `reply` answers a plain request
 * as one JSON body and a `stream: true` request as word-sized chunks; `stream` scripts the
 * chunks of a streamed answer: a delay between them, a `hold` promise awaited before the last
 * one (on `reply`: before answering), and how it ends (`finish` normally, `break` the connection, `stall` forever, or
 * `noFinish`: [DONE] without a finish_reason). `endless` streams `piece` (every `chunkDelayMs`,
 * or as fast as the socket takes it) until the client goes away, as a runaway model does.
 */
export type Behaviour =
  | {
      kind: 'reply';
      text: string;
      delayMs?: number;
      hold?: Promise<unknown>;
      usage?: Usage | null;
      /** A reasoning model's thinking: in the message (plain) or as deltas before the text (streamed). */
      reasoning?: string;
      reasoningField?: ReasoningField;
    }
  | {
      kind: 'stream';
      chunks: string[];
      chunkDelayMs?: number;
      hold?: Promise<unknown>;
      /** `gates[i]`, when given, is awaited before chunk i is sent. */
      gates?: ReadonlyArray<Promise<unknown> | undefined>;
      end?: 'finish' | 'break' | 'stall' | 'noFinish';
      usage?: Usage | null;
      /** Reasoning deltas sent before the chunks, as vLLM and DeepSeek (`reasoning_content`) or Ollama (`reasoning`) send them. */
      reasoning?: string[];
      reasoningField?: ReasoningField;
    }
  | { kind: 'endless'; piece?: string; chunkDelayMs?: number }
  | { kind: 'toolCalls'; calls: Array<{ name: string; arguments: string }> }
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'malformed' }
  | { kind: 'disconnect' }
  | { kind: 'empty' };

/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 for tests: real HTTP, driven by
 * the real `openai` SDK. By default it answers `reply to: <last user message>`; queue
 * behaviours to script failures. It records every request it receives.
 */
export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  /** What GET /v1/models lists; `null` answers it 404, as servers without the route do. */
  models: string[] | null = ['fake-model'];
  private readonly script: Behaviour[] = [];
  private responder?: (body: RecordedRequest['body']) => Behaviour | undefined;
  private readonly hanging = new Set<ServerResponse>();
  /** Endless streams still being written (one ends when its client closes the connection). */
  endlessOpen = 0;
  private server?: Server;
  private port = 0;

  static async start(): Promise<FakeOpenAiServer> {
    const fake = new FakeOpenAiServer();
    await fake.listen();
    return fake;
  }

  /** Base URL for LLM_BASE_URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Chat completion requests only, oldest first. */
  get completions(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions');
  }

  get lastCompletion(): RecordedRequest {
    const last = this.completions.at(-1);
    if (!last) throw new Error('The fake model received no chat completion request');
    return last;
  }

  /** Queues behaviours for the next requests, in order; afterwards the default reply resumes. */
  enqueue(...behaviours: Behaviour[]): this {
    this.script.push(...behaviours);
    return this;
  }

  /**
   * Answers computed from each request (after the queued behaviours run out), for tests whose
   * requests interleave unpredictably; `undefined` falls back to the default reply.
   */
  respondWith(responder: (body: RecordedRequest['body']) => Behaviour | undefined): this {
    this.responder = responder;
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    this.responder = undefined;
    this.models = ['fake-model'];
    this.releaseHanging();
  }

  async close(): Promise<void> {
    this.releaseHanging();
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private releaseHanging(): void {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  /** An answer asking for tool calls, plain or streamed (arguments in two fragments). */
  private toolCalls(
    res: ServerResponse,
    body: RecordedRequest['body'],
    calls: Array<{ name: string; arguments: string }>,
  ): void {
    const model = body.model ?? 'fake-model';
    const wire = calls.map((c, i) => ({
      id: `call_${i}_${Math.random().toString(36).slice(2, 8)}`,
      type: 'function',
      function: c,
    }));
    if (!body.stream) {
      return json(res, 200, {
        id: 'chatcmpl-tools',
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          { index: 0, message: { role: 'assistant', content: null, tool_calls: wire }, finish_reason: 'tool_calls' },
        ],
        usage: { ...DEFAULT_USAGE, total_tokens: 18 },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: object, finish: string | null) =>
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-tools', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    wire.forEach((call, index) => {
      const half = Math.floor(call.function.arguments.length / 2);
      send(
        {
          tool_calls: [
            {
              index,
              id: call.id,
              type: 'function',
              function: { name: call.function.name, arguments: call.function.arguments.slice(0, half) },
            },
          ],
        },
        null,
      );
      send({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }] }, null);
    });
    send({}, 'tool_calls');
    res.end('data: [DONE]\n\n');
  }

  /** Server-sent chunks in the format of OpenAI's streaming chat completions. */
  private async streamChunks(
    res: ServerResponse,
    body: RecordedRequest['body'],
    b: Extract<Behaviour, { kind: 'stream' }>,
  ): Promise<void> {
    const model = body.model ?? 'fake-model';
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
    const send = (delta: object, finish: string | null, extra: object = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    send({ role: 'assistant', content: '' }, null);
    for (const thought of b.reasoning ?? []) {
      if (b.chunkDelayMs) await new Promise((r) => setTimeout(r, b.chunkDelayMs));
      if (res.destroyed) return;
      send({ [b.reasoningField ?? 'reasoning_content']: thought }, null);
    }
    for (const [i, chunk] of b.chunks.entries()) {
      if (i === b.chunks.length - 1 && b.hold) await b.hold;
      if (b.gates?.[i]) await b.gates[i];
      if (b.chunkDelayMs) await new Promise((r) => setTimeout(r, b.chunkDelayMs));
      if (res.destroyed) return;
      send({ content: chunk }, null);
    }
    const end = b.end ?? 'finish';
    // Let the chunks already written reach the client, then cut the connection mid-answer.
    if (end === 'break') return void setTimeout(() => res.socket?.destroy(), 30);
    if (end === 'stall') return void this.hanging.add(res);
    if (end === 'finish') send({}, 'stop');
    const usage = b.usage === undefined ? DEFAULT_USAGE : b.usage;
    const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
    if (usage && wantsUsage) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }

  /** Chunks until the client closes the connection; never a finish_reason. */
  private async streamEndlessly(
    res: ServerResponse,
    body: RecordedRequest['body'],
    b: Extract<Behaviour, { kind: 'endless' }>,
  ): Promise<void> {
    const model = body.model ?? 'fake-model';
    const piece = JSON.stringify({
      id: 'chatcmpl-endless',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta: { content: b.piece ?? 'more ' }, finish_reason: null }],
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    this.endlessOpen++;
    try {
      while (!res.destroyed && !res.writableEnded) {
        const flowing = res.write(`data: ${piece}\n\n`);
        if (b.chunkDelayMs) await new Promise((r) => setTimeout(r, b.chunkDelayMs));
        else if (!flowing) await new Promise((r) => (res.once('drain', r), res.once('close', r)));
        else await new Promise((r) => setImmediate(r));
      }
    } finally {
      this.endlessOpen--;
    }
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    return new Promise((resolve) => {
      this.server!.listen(0, '127.0.0.1', () => {
        this.port = (this.server!.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    let body: RecordedRequest['body'] = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });

    if (path === '/v1/models' && this.models)
      return json(res, 200, {
        object: 'list',
        data: this.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
    if (path !== '/v1/chat/completions' || req.method !== 'POST') {
      return json(res, 404, { error: { message: `no route ${path}`, type: 'invalid_request_error' } });
    }
    const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
    const behaviour = this.script.shift() ??
      this.responder?.(body) ?? { kind: 'reply', text: `reply to: ${lastUser?.content ?? ''}` };
    await this.perform(behaviour, body, res);
  }

  private async perform(b: Behaviour, body: RecordedRequest['body'], res: ServerResponse): Promise<void> {
    switch (b.kind) {
      case 'reply': {
        if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
        if (b.hold) await b.hold;
        if (res.destroyed) return;
        const usage = b.usage === undefined ? DEFAULT_USAGE : b.usage;
        const words = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];
        if (body.stream) {
          return this.streamChunks(res, body, {
            kind: 'stream',
            chunks: words(b.text),
            usage,
            reasoning: b.reasoning ? words(b.reasoning) : undefined,
            reasoningField: b.reasoningField,
          });
        }
        const answer = completion(body.model ?? 'fake-model', b.text, usage);
        if (b.reasoning)
          Object.assign(answer.choices[0].message, { [b.reasoningField ?? 'reasoning_content']: b.reasoning });
        return json(res, 200, answer);
      }
      case 'stream':
        return this.streamChunks(res, body, b);
      case 'endless':
        return this.streamEndlessly(res, body, b);
      case 'toolCalls':
        return this.toolCalls(res, body, b.calls);
      case 'empty':
        if (body.stream) return this.streamChunks(res, body, { kind: 'stream', chunks: [] });
        return json(res, 200, completion(body.model ?? 'fake-model', '', null));
      case 'status':
        return json(
          res,
          b.status,
          { error: { message: b.message ?? `fake error ${b.status}`, type: 'server_error' } },
          b.headers,
        );
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-broken", "choices": [');
        return;
      case 'disconnect':
        res.socket?.destroy();
        return;
      case 'hang':
        // Never answers; released on reset() or close().
        this.hanging.add(res);
        return;
    }
  }
}

const DEFAULT_USAGE: Usage = { prompt_tokens: 11, completion_tokens: 7 };

function completion(model: string, text: string, usage: { prompt_tokens: number; completion_tokens: number } | null) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

function json(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}
