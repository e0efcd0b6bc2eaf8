import { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { MAX_EVENT_CHARS, readCompletionChunks } from './completion-chunks.js';
import { ModelUnavailableError } from './llm.errors.js';

/** A real fetch Response whose body arrives in exactly these reads. */
function responseOf(reads: Array<string | Uint8Array>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const read of reads) controller.enqueue(typeof read === 'string' ? encoder.encode(read) : read);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const event = (content: string, extra = '') =>
  `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}]${extra}}\n\n`;

async function textsOf(reads: Array<string | Uint8Array>): Promise<string[]> {
  const texts: string[] = [];
  await readCompletionChunks(responseOf(reads), (chunk: ChatCompletionChunk) =>
    texts.push(chunk.choices[0]?.delta?.content ?? ''),
  );
  return texts;
}

describe('readCompletionChunks', () => {
  it('gives every chunk in order, whatever the network reads cut', async () => {
    const wire = event('Hello') + event(' wörld 🌍') + ': a comment\n\n' + event('!') + 'data: [DONE]\n\n';
    const bytes = new TextEncoder().encode(wire);
    // Every byte its own read: events, lines and UTF-8 sequences all cut apart.
    const reads = [...bytes].map((b) => Uint8Array.of(b));
    expect(await textsOf(reads)).toEqual(['Hello', ' wörld 🌍', '!']);
    expect(await textsOf([wire])).toEqual(['Hello', ' wörld 🌍', '!']);
  });

  it('reads CRLF line ends, and nothing after [DONE]', async () => {
    expect(await textsOf([event('a').replaceAll('\n', '\r\n'), 'data: [DONE]\r\n\r\n', event('late')])).toEqual(['a']);
  });

  it('throws the SDK error for an event carrying an error, after the chunks before it', async () => {
    const texts: string[] = [];
    const reading = readCompletionChunks(
      responseOf([
        event('partial'),
        'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n',
        event('never'),
      ]),
      (c) => texts.push(c.choices[0]?.delta?.content ?? ''),
    );
    await expect(reading).rejects.toBeInstanceOf(APIError);
    await expect(reading).rejects.toThrow('overloaded');
    expect(texts).toEqual(['partial']);
  });

  it('fails on an event that is not JSON, and on one larger than the bound', async () => {
    await expect(textsOf(['data: {"choices": [\n\n'])).rejects.toBeInstanceOf(ModelUnavailableError);
    await expect(textsOf([`data: ${'x'.repeat(MAX_EVENT_CHARS + 10)}`])).rejects.toBeInstanceOf(ModelUnavailableError);
  });

  it('does not dispatch an event cut before its blank line (the connection broke)', async () => {
    expect(await textsOf([event('whole'), event('cut').slice(0, -2)])).toEqual(['whole']);
  });
});

describe('readCompletionChunks, stopped by its signal', () => {
  /** A body that sends a burst of events, then neither ends nor errors: a transport that does not end the body when the call is aborted. */
  function burstThenSilence(events: number): Response {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(Array.from({ length: events }, () => event('xxxx')).join('')));
      },
      pull: () => new Promise(() => undefined),
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }

  it('stops handing out chunks at once and ends, even when the body never ends', async () => {
    const stop = new AbortController();
    let seen = 0;
    const read = readCompletionChunks(
      burstThenSilence(1000),
      () => {
        seen += 1;
        // Cut in the middle of one network read's burst of events.
        if (seen === 10) stop.abort(new Error('cut'));
      },
      stop.signal,
    );
    await expect(read).rejects.toThrow('cut');
    expect(seen).toBe(10);
  });

  it('ends a read that waits on the network when the signal aborts', async () => {
    const stop = new AbortController();
    const read = readCompletionChunks(burstThenSilence(1), () => undefined, stop.signal);
    setTimeout(() => stop.abort(new Error('stopped')), 20);
    await expect(read).rejects.toThrow('stopped');
  });
});
