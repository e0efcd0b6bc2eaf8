import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ModelUnavailableError } from './llm.errors.js';

/** One server-sent event of the model's stream may not be larger than this (a chunk is a few hundred bytes). */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/**
 * Reads a streamed chat completion from the raw response the SDK returned (`asResponse()`):
 * the SDK still makes the request (headers, retries, error answers, timeouts), only the body
 * is read here. Same rules as the SDK's own `Stream`: `[DONE]` ends the stream, an event
 * carrying `error` throws the SDK's APIError, `thread.*` events are not chunks. Why not the
 * SDK's iterator: it copies every network read into new byte arrays, scans them byte by byte
 * in JavaScript and hands each event through four async generators (a dozen promises per
 * chunk); with hundreds of replies streaming, that is the largest part of the server's CPU.
 * Here each network read costs one promise, and the text is parsed by eventsource-parser.
 *
 * `onChunk` is called for each chunk, in order. Resolves when the body ends; rejects with
 * what the body threw (a broken connection), an APIError / ModelUnavailableError, or the
 * signal's reason once `signal` aborts. The signal is obeyed here, not left to the transport:
 * an aborted fetch does not always end a body that is being read, and a fast model's burst
 * holds many more events in the read already made, so a cut reply kept reading (and its
 * generation never ended) while the model went on.
 */
export async function readCompletionChunks(
  response: Response,
  onChunk: (chunk: ChatCompletionChunk) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (!response.body) throw new ModelUnavailableError("The model's answer has no body");
  signal?.throwIfAborted();
  const reader = response.body.getReader();
  // Cancelling the reader settles a read waiting on the network (as the end of the body).
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder();
  let done = false;
  let failure: Error | null = null;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_CHARS,
    onError: (error) => {
      failure ??= new ModelUnavailableError(`The model's stream could not be read: ${error.message}`);
    },
    onEvent: (event: EventSourceMessage) => {
      if (done || failure || signal?.aborted) return;
      if (event.data.startsWith('[DONE]')) {
        done = true;
        return;
      }
      if (event.event?.startsWith('thread.')) return;
      let data: (ChatCompletionChunk & { error?: unknown }) | null;
      try {
        data = JSON.parse(event.data) as ChatCompletionChunk & { error?: unknown };
      } catch {
        failure = new ModelUnavailableError(`The model sent an event that is not JSON: ${event.data.slice(0, 100)}`);
        return;
      }
      if (data?.error) {
        failure = new APIError(undefined, data.error as object, undefined, response.headers);
        return;
      }
      onChunk(data as ChatCompletionChunk);
    },
  });
  let ended = false;
  try {
    for (;;) {
      const { value, done: end } = await reader.read();
      signal?.throwIfAborted();
      if (end) {
        ended = true;
        break;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      signal?.throwIfAborted();
      if (failure) throw failure;
    }
    // An event without its closing blank line is not dispatched, as with the SDK.
    parser.feed(decoder.decode());
    if (failure) throw failure;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Stopped before the end (a bad event, a delta that threw): let go of the connection.
    if (!ended) void reader.cancel().catch(() => undefined);
  }
}
