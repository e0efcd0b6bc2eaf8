/** One server-sent event, its data parsed as JSON. */
export interface SseEvent {
  readonly event: string;
  readonly data: any;
}

export interface EventStreamResponse {
  readonly status: number;
  readonly contentType: string;
  /** The JSON body of a non-stream answer (errors before the stream starts). */
  readonly json?: any;
  /** Resolves with the next event, or null when the stream has ended. */
  next(): Promise<SseEvent | null>;
  /** Reads until the stream ends (or `stopAt` matches) and returns every event read. */
  collect(stopAt?: (e: SseEvent) => boolean): Promise<SseEvent[]>;
  /** Drops the connection, like a browser tab closing. */
  abort(): void;
}

/** A real HTTP client (fetch) reading a text/event-stream answer incrementally. */
export async function openEventStream(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: object } = {},
): Promise<EventStreamResponse> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      Accept: 'text/event-stream',
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      ...init.headers,
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream')) {
    const text = await res.text();
    const empty = async () => null;
    return {
      status: res.status,
      contentType,
      json: text ? JSON.parse(text) : undefined,
      next: empty,
      collect: async () => [],
      abort: () => controller.abort(),
    };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pending: SseEvent[] = [];
  let ended = false;

  const next = async (): Promise<SseEvent | null> => {
    for (;;) {
      if (pending.length) return pending.shift()!;
      if (ended) return null;
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        ended = true;
        continue;
      }
      if (chunk.done) {
        ended = true;
        continue;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      let boundary: number;
      while ((boundary = buffer.indexOf('\n\n')) >= 0) {
        const event = parseBlock(buffer.slice(0, boundary));
        buffer = buffer.slice(boundary + 2);
        if (event) pending.push(event);
      }
    }
  };
  return {
    status: res.status,
    contentType,
    next,
    async collect(stopAt) {
      const events: SseEvent[] = [];
      for (let e = await next(); e; e = await next()) {
        events.push(e);
        if (stopAt?.(e)) break;
      }
      return events;
    },
    abort: () => controller.abort(),
  };
}

/** One event block (the lines before a blank line); null for a comment or keep-alive. */
function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  return data.length ? { event, data: JSON.parse(data.join('\n')) } : null;
}

/** The complete events of a text/event-stream body (an unfinished last block is left out). */
export function parseEvents(body: string): SseEvent[] {
  const blocks = body.split('\n\n').slice(0, -1);
  return blocks.map(parseBlock).filter((e): e is SseEvent => e !== null);
}

/** The text of all `delta` events, joined. */
export const deltaText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text)
    .join('');
