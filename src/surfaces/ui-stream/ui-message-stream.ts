import type { Response } from 'express';
import type { UIMessage, UIMessageChunk } from 'ai';
import type { ReplyOutcome } from '../../chat/turn.js';
import { cutReason } from '../../chat/chat-request.js';
import { EventStream, type EventFormat, type StreamLimits } from '../streaming/event-stream.js';
import type { FunctionCallRecord, ToolCallRecord } from '../../conversations/message.entity.js';
import { AGENT_TOOLS, approvalIdOf } from './ui-chat-request.js';
import { isToolPart, jsonOrText, stateAfterTools, toolCallIdOf } from './ui-messages.js';

/** The text part's id: tool parts between texts close it, and the next text opens it again under the same id. */
const TEXT_ID = 'text';
const DONE = '[DONE]';

/** The AI SDK's UI message stream, protocol v1: `data: <chunk JSON>` events, then `data: [DONE]`. */
const UI_MESSAGE_STREAM: EventFormat = {
  headers: { 'Content-Type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
  delta: (delta) => data({ type: 'text-delta', id: TEXT_ID, delta }),
  event: (event, chunk) => (event === DONE ? `data: ${DONE}\n\n` : data(chunk as UIMessageChunk)),
};

function data(chunk: UIMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** What a reply's metadata says (`message.metadata` on the client): merged from `start` and the end. */
export interface UiMessageMetadata {
  readonly conversationId: string;
  readonly thread?: string;
  readonly model?: string | null;
  readonly status?: string;
  readonly usage?: ReplyOutcome['usage'];
  readonly error?: { readonly code: string; readonly message: string } | null;
}

/** A call of an agent's tool the client answered an approval for: its output (JSON text), or null when denied. */
export interface SettledCall {
  readonly toolCallId: string;
  readonly output: string | null;
}

type Ending = Pick<ReplyOutcome, 'status' | 'content' | 'model' | 'usage' | 'error' | 'toolCalls' | 'functionCalls'>;

/**
 * One reply as a UI message stream, over the REST surface's event stream (backpressure, slow
 * clients dropped, keep-alives): `start` (the stored reply's id), `start-step`, the text (opened by
 * its first piece), the agent's tools as tool parts, the client's tool calls, then how it ended. Only chunk types and fields of the SDK's schemas are written.
 */
export class UiMessageStream {
  private readonly sse: EventStream;
  private conversationId = '';
  private replyId = '';
  private toolsRun = 0;
  private textOpen = false;

  constructor(res: Response, limits: StreamLimits) {
    this.sse = new EventStream(res, limits, UI_MESSAGE_STREAM);
  }

  /** Aborts when the client goes away. */
  get clientGone(): AbortSignal {
    return this.sse.clientGone;
  }

  /** `replyId`: the stored reply, when the UI message has another id (a reply going on after tool outputs). */
  start(messageId: string, metadata: UiMessageMetadata, replyId = messageId): void {
    this.conversationId = metadata.conversationId;
    this.replyId = replyId;
    this.chunk({ type: 'start', messageId, messageMetadata: metadata });
    this.chunk({ type: 'start-step' });
  }

  delta(text: string): void {
    if (!text) return;
    if (!this.textOpen) {
      this.textOpen = true;
      this.chunk({ type: 'text-start', id: TEXT_ID });
    }
    this.sse.delta(text);
  }

  /** A tool of ours the reply ran: its call and output, a step of their own. */
  tool(call: ToolCallRecord): void {
    this.closeText();
    const toolCallId = toolCallIdOf(this.replyId, this.toolsRun++);
    this.chunk({ type: 'tool-input-available', toolCallId, toolName: call.name, input: jsonOrText(call.arguments) });
    this.chunk({ type: 'tool-output-available', toolCallId, output: jsonOrText(call.result) });
    this.chunk({ type: 'finish-step' });
    this.chunk({ type: 'start-step' });
  }

  /**
   * The parts of the replies a resumed reply goes on from (stored: texts, tool calls with their
   * outputs), each stored reply a step, then the step of the reply in progress.
   */
  replay(parts: UIMessage['parts']): void {
    for (const part of parts) {
      if (part.type === 'step-start') {
        this.closeText();
        this.chunk({ type: 'finish-step' });
        this.chunk({ type: 'start-step' });
      } else if (part.type === 'text') {
        this.delta(part.text);
      } else if (isToolPart(part)) {
        this.closeText();
        const toolName = part.type.slice('tool-'.length);
        this.chunk({ type: 'tool-input-available', toolCallId: part.toolCallId, toolName, input: part.input });
        if (part.state === 'output-available')
          this.chunk({ type: 'tool-output-available', toolCallId: part.toolCallId, output: part.output });
        if (part.state === 'output-denied') this.chunk({ type: 'tool-output-denied', toolCallId: part.toolCallId });
      }
    }
    this.closeText();
    this.chunk({ type: 'finish-step' });
    this.chunk({ type: 'start-step' });
  }

  /** Calls of the agent's tools the client answered an approval for: the output of one approved (and run), or its denial. */
  settle(calls: readonly SettledCall[]): void {
    for (const { toolCallId, output } of calls) {
      this.chunk(
        output === null
          ? { type: 'tool-output-denied', toolCallId }
          : { type: 'tool-output-available', toolCallId, output: jsonOrText(output) },
      );
    }
  }

  /**
   * Calls the reply ends with: of the client's tools (the client runs them and sends their
   * outputs), or of the agent's that wait for the client's approval.
   */
  private clientCalls(calls: readonly FunctionCallRecord[]): void {
    for (const call of calls) {
      this.chunk({ type: 'tool-input-start', toolCallId: call.callId, toolName: call.name });
      this.chunk({
        type: 'tool-input-available',
        toolCallId: call.callId,
        toolName: call.name,
        input: jsonOrText(call.arguments),
      });
      if (AGENT_TOOLS.has(call.name))
        this.chunk({ type: 'tool-approval-request', approvalId: approvalIdOf(call.callId), toolCallId: call.callId });
    }
  }

  /**
   * How the reply ended: `finish` (reason `stop`, or `length` when a bound cut it), `abort` when it
   * was stopped, an `error` chunk when it failed (the reply stays stored as failed).
   */
  finish(outcome: Ending): void {
    this.closeText();
    const state = stateAfterTools(outcome.toolCalls);
    if (state) this.chunk({ type: 'data-state', id: 'state', data: state });
    const calls = outcome.status === 'complete' ? (outcome.functionCalls ?? []) : [];
    this.clientCalls(calls);
    this.chunk({ type: 'finish-step' });
    const metadata: UiMessageMetadata = {
      conversationId: this.conversationId,
      status: outcome.status,
      model: outcome.model,
      usage: outcome.usage,
      error: outcome.status === 'truncated' ? cutReason(outcome) : outcome.error,
    };
    if (outcome.status === 'failed')
      return this.chunk({ type: 'error', errorText: outcome.error?.message ?? 'The model failed' });
    if (outcome.status === 'cancelled') {
      this.chunk({ type: 'message-metadata', messageMetadata: metadata });
      return this.chunk({ type: 'abort', reason: 'stopped' });
    }
    const finishReason = outcome.status === 'truncated' ? 'length' : calls.length ? 'tool-calls' : 'stop';
    this.chunk({ type: 'finish', finishReason, messageMetadata: metadata });
  }

  /** A failure that is not the reply's own (it could not be stored, say). */
  fail(errorText: string): void {
    this.closeText();
    this.chunk({ type: 'error', errorText });
  }

  /** Breaks the connection without `[DONE]`: the client sees a network failure and resumes. */
  cut(): void {
    this.sse.cut();
  }

  /** `[DONE]`, then the end of the answer once everything held back is written. */
  end(): void {
    this.sse.send(DONE, null);
    this.sse.end();
  }

  private closeText(): void {
    if (!this.textOpen) return;
    this.textOpen = false;
    this.chunk({ type: 'text-end', id: TEXT_ID });
  }

  private chunk(chunk: UIMessageChunk): void {
    this.sse.send(chunk.type, chunk);
  }
}
