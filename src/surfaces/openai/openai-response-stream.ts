import type { Response } from 'express';
import { GrowingText } from '../../common/growing-text.js';
import { EventStream, NAMED_EVENTS, type StreamLimits } from '../http/sse/event-stream.js';
import { functionCallItemId, messageItemId } from './openai-ids.js';
import { outputText } from './openai-items.js';
import type { ReplyView } from './openai-responses.js';

type ResponseObject = { status: string; output: Array<Record<string, unknown>> } & Record<string, unknown>;

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

  constructor(
    res: Response,
    limits: StreamLimits,
    private readonly replyId: string,
  ) {
    this.itemId = messageItemId(replyId);
    this.sse = new EventStream(res, limits, {
      headers: NAMED_EVENTS.headers,
      delta: (delta) => this.frame('response.output_text.delta', { item_id: this.itemId, output_index: 0, content_index: 0, delta, logprobs: [] }),
      event: (type, data) => this.frame(type, data as Record<string, unknown>),
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
      this.sse.send('response.output_item.added', { output_index: 0, item: { id: this.itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
      this.sse.send('response.content_part.added', { item_id: this.itemId, output_index: 0, content_index: 0, part: outputText('') });
    }
    this.text.append(piece);
    this.sse.delta(piece);
  }

  /** The closing events: the text's and the calls' `done`s, then the response as it ended. */
  finish(reply: Pick<ReplyView, 'functionCalls' | 'status'>, response: ResponseObject): void {
    let index = 0;
    if (this.messageOpen) {
      const text = this.text.toString();
      const item = { id: this.itemId, type: 'message', status: reply.status === 'complete' ? 'completed' : 'incomplete', role: 'assistant', content: [outputText(text)] };
      this.sse.send('response.output_text.done', { item_id: this.itemId, output_index: 0, content_index: 0, text, logprobs: [] });
      this.sse.send('response.content_part.done', { item_id: this.itemId, output_index: 0, content_index: 0, part: outputText(text) });
      this.sse.send('response.output_item.done', { output_index: 0, item });
      index = 1;
    }
    reply.functionCalls.forEach((call, i) => {
      const id = functionCallItemId(this.replyId, i);
      const item = { type: 'function_call', id, call_id: call.callId, name: call.name, arguments: call.arguments, status: 'completed' };
      const output_index = index + i;
      this.sse.send('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      this.sse.send('response.function_call_arguments.delta', { item_id: id, output_index, delta: call.arguments });
      this.sse.send('response.function_call_arguments.done', { item_id: id, output_index, name: call.name, arguments: call.arguments });
      this.sse.send('response.output_item.done', { output_index, item });
    });
    const closing = response.status === 'completed' ? 'response.completed' : response.status === 'incomplete' ? 'response.incomplete' : 'response.failed';
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
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...data })}\n\n`;
  }
}
