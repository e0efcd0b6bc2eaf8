import type { components } from './schema.js';

type Schemas = components['schemas'];

/** One server-sent event of the streaming routes, as described in the OpenAPI document. */
export type StreamEvent = Schemas['StreamConversationEvent'] | Schemas['StreamDeltaEvent'] | Schemas['StreamDoneEvent'] | Schemas['StreamErrorEvent'];

/**
 * The events of a `text/event-stream` body, e.g. the `data` of
 * `client.POST('/api/chat/stream', { body, parseAs: 'stream' })`. Comment lines
 * (`: keep-alive`) and events without data are skipped.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // Lines may end with \r\n or \r; a \r at the end may be the first half of a \r\n.
      buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n|\r(?!$)/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) yield event;
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

function parseEvent(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === 0) continue; // a comment
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (!data.length) return null;
  return { event, data: JSON.parse(data.join('\n')) } as StreamEvent;
}
