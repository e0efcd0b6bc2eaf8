import type { Response } from 'express';
import { GrowingText } from '../../common/growing-text.js';
import { EventStream, NAMED_EVENTS, type StreamLimits } from '../streaming/event-stream.js';
import { functionCallItemId, messageItemId } from './openai-ids.js';
import { outputText } from './openai-items.js';
import type { ReplyView } from './openai-responses.js';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

type ResponseObject = { status: string; output: Array<Record<string, unknown>> } & Record<string, unknown>;

/**
 * How a replay from the database (a followed response) is cut and numbered, so that any two
 * replays of one response agree whatever pieces the text was saved in: `response.created` 0,
 * `response.in_progress` 1, the message item and its part 2 and 3; the text in deltas that end
 * at multiples of REPLAY_CHUNK characters (and at its end), each numbered 3 + the text's length
 * up to its end, so a number names an offset in the text; then the rest in order.
 * `startingAfter` leaves out what the client has had (the SDK may also filter a whole replay).
 */
export interface Replay {
  readonly startingAfter: number | null;
}

/** The sequence number of the first event after the message item's opening ones, in a replay. */
const TEXT_BASE = 3;
/** Where a replay's deltas end: a cost of one event per this many characters, and a wait of at most as many for a follower. */
const REPLAY_CHUNK = 32;

/**
 * A response streamed as OpenAI's server-sent events, in the order its SDK's ResponseStream
 * requires: `response.created`, `response.in_progress`, the message item and its text part as
 * the first text comes, `response.output_text.delta`..., their `done` events, the function
 * calls, then `response.completed` (or `response.incomplete`, `response.failed`). Every event
 * carries the next `sequence_number`, given as it is written (so deltas joined for a slow
 * client stay numbered in order). Backpressure and dropping a stalled client are EventStream's.
 */
export class ResponseEventStream {
  private sequence = 0;
  private readonly sse: EventStream;
  private readonly itemId: string;
  private readonly text = new GrowingText();
  private messageOpen = false;
  /** In a replay: the text's length up to the last delta written. */
  private written = 0;
  /** In a replay: text the client has had, not sent again. */
  private skip = 0;
  /** In a replay: text after `cut`, waiting for its chunk to fill. */
  private pending = '';

  constructor(
    res: Response,
    limits: StreamLimits,
    private readonly replyId: string,
    private readonly replay: Replay | null = null,
  ) {
    this.itemId = messageItemId(replyId);
    if (replay?.startingAfter != null) this.skip = Math.max(0, replay.startingAfter - TEXT_BASE);
    this.sse = new EventStream(res, limits, {
      headers: NAMED_EVENTS.headers,
      delta: (delta) => {
        if (this.replay) {
          this.written += delta.length;
          this.sequence = TEXT_BASE + this.written;
        }
        return this.frame('response.output_text.delta', {
          item_id: this.itemId,
          output_index: 0,
          content_index: 0,
          delta,
          logprobs: [],
        });
      },
      event: (type, data) => {
        // Numbered as it is written, after every delta before it: the text's length fixes where the closing events start.
        if (this.replay && type === 'response.output_text.done') this.sequence = TEXT_BASE + this.written + 1;
        return this.frame(type, data as Record<string, unknown>);
      },
    });
  }

  /** Aborts when the client goes away; the reply goes on being generated and stored all the same. */
  get clientGone(): AbortSignal {
    return this.sse.clientGone;
  }

  started(response: ResponseObject): void {
    this.sse.send('response.created', { response });
    this.sse.send('response.in_progress', { response });
  }

  delta(piece: string): void {
    if (!piece) return;
    if (!this.messageOpen) {
      this.messageOpen = true;
      this.sse.send('response.output_item.added', {
        output_index: 0,
        item: { id: this.itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      });
      this.sse.send('response.content_part.added', {
        item_id: this.itemId,
        output_index: 0,
        content_index: 0,
        part: outputText(''),
      });
    }
    this.text.append(piece);
    if (this.replay) {
      this.pending += piece;
      this.cutChunks(false);
      return;
    }
    this.sse.delta(piece);
  }

  /** Sends the replay's pending text in whole chunks (and, at the end, what remains). */
  private cutChunks(end: boolean): void {
    while (this.pending.length > 0) {
      // A chunk never ends between the two halves of a surrogate pair: it takes the pair whole.
      const size =
        this.pending.length >= REPLAY_CHUNK && isHighSurrogate(this.pending.charCodeAt(REPLAY_CHUNK - 1))
          ? REPLAY_CHUNK + 1
          : REPLAY_CHUNK;
      if (this.pending.length < size && !end) return;
      const chunk = this.pending.slice(0, size);
      this.pending = this.pending.slice(chunk.length);
      this.sendText(chunk);
    }
  }

  private sendText(piece: string): void {
    if (this.skip > 0) {
      // Text the client had before it resumed: counted in the numbering, not sent again.
      const had = Math.min(this.skip, piece.length);
      this.skip -= had;
      this.written += had;
      piece = piece.slice(had);
      if (!piece) return;
    }
    this.sse.delta(piece);
  }

  /** The closing events: the text's and the calls' `done`s, then the response as it ended. */
  finish(reply: Pick<ReplyView, 'functionCalls' | 'status'>, response: ResponseObject): void {
    if (this.replay) this.cutChunks(true);
    let index = 0;
    if (this.messageOpen) {
      const text = this.text.toString();
      const item = {
        id: this.itemId,
        type: 'message',
        status: reply.status === 'complete' ? 'completed' : 'incomplete',
        role: 'assistant',
        content: [outputText(text)],
      };
      this.sse.send('response.output_text.done', {
        item_id: this.itemId,
        output_index: 0,
        content_index: 0,
        text,
        logprobs: [],
      });
      this.sse.send('response.content_part.done', {
        item_id: this.itemId,
        output_index: 0,
        content_index: 0,
        part: outputText(text),
      });
      this.sse.send('response.output_item.done', { output_index: 0, item });
      index = 1;
    }
    reply.functionCalls.forEach((call, i) => {
      const id = functionCallItemId(this.replyId, i);
      const item = {
        type: 'function_call',
        id,
        call_id: call.callId,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      };
      const output_index = index + i;
      this.sse.send('response.output_item.added', {
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      this.sse.send('response.function_call_arguments.delta', { item_id: id, output_index, delta: call.arguments });
      this.sse.send('response.function_call_arguments.done', {
        item_id: id,
        output_index,
        name: call.name,
        arguments: call.arguments,
      });
      this.sse.send('response.output_item.done', { output_index, item });
    });
    const closing =
      response.status === 'completed'
        ? 'response.completed'
        : response.status === 'incomplete'
          ? 'response.incomplete'
          : 'response.failed';
    this.sse.send(closing, { response });
  }

  /** What went wrong after the stream opened (the reply could not be stored): OpenAI's `error` event. */
  error(message: string, code: string | null): void {
    this.sse.send('error', { code, message, param: null });
  }

  /** The text streamed so far (the output of a response that ends without the stored reply). */
  get streamedText(): string {
    return this.text.toString();
  }

  end(): void {
    this.sse.end();
  }

  private frame(type: string, data: Record<string, unknown>): string {
    const sequence = this.sequence++;
    if (this.replay?.startingAfter != null && sequence <= this.replay.startingAfter) return '';
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;
  }
}
