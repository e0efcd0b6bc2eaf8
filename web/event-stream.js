// @ts-check
// Server-sent events read from a fetch body (EventSource can send neither a body nor a header),
// parsed by eventsource-parser as the HTML standard says: lines may end with CRLF, CR or LF, the
// lines of a multi-line `data` are joined with LF, one space after the colon is dropped, and
// comments (the ": keep-alive" lines) are skipped. The service serves the library from its own
// node_modules (exact version in package.json).
import { createParser } from './vendor/eventsource-parser/index.js';

/** Far above the largest event the service sends (`done` with a reply of MAX_REPLY_CHARS, at most 1,000,000). */
const MAX_BUFFER_CHARS = 16 * 1024 * 1024;

/**
 * One event: its name ("message" when the server names none) and its data as sent.
 * @typedef {{ event: string, data: string }} EventStreamMessage
 */

/**
 * Calls onMessage for every event of a text/event-stream body until the server ends it. Events
 * without data are skipped, as EventSource does; an event cut off by the end of the body is
 * dropped. Rejects when the connection breaks (or is aborted), or when one event grows past
 * MAX_BUFFER_CHARS (memory stays bounded whatever the other end sends).
 * @param {ReadableStream<Uint8Array>} body
 * @param {(message: EventStreamMessage) => void} onMessage
 * @returns {Promise<void>}
 */
export async function readEventStream(body, onMessage) {
  /** @type {Error | null} */
  let overflow = null;
  const parser = createParser({
    maxBufferSize: MAX_BUFFER_CHARS,
    onEvent: ({ event, data }) => {
      if (data) onMessage({ event: event ?? 'message', data });
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = error; // other errors (an unknown field) are ignored, as the standard says
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
    if (overflow) {
      await reader.cancel().catch(() => undefined);
      throw overflow;
    }
    if (done) return;
  }
}
