import {
  AbstractChat,
  DefaultChatTransport,
  readUIMessageStream,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { auth } from './test-app.js';

/**
 * The AI SDK as a `useChat` app uses it, against a test app: its DefaultChatTransport (which
 * validates every chunk with the SDK's own schema), readUIMessageStream, and its Chat logic
 * (AbstractChat, the class behind useChat) over an in-memory state instead of React's.
 */
export function uiTransport(
  base: string,
  key: string,
  options: ConstructorParameters<typeof DefaultChatTransport>[0] = {},
): DefaultChatTransport<UIMessage> {
  return new DefaultChatTransport<UIMessage>({ api: `${base}/api/ui/chat`, headers: auth(key), ...options });
}

export function userMessage(text: string, id = `u-${Math.random().toString(36).slice(2, 10)}`): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** Every chunk of a stream, and the message readUIMessageStream assembles from the same chunks. */
export async function readChunks(
  stream: ReadableStream<UIMessageChunk>,
): Promise<{ chunks: UIMessageChunk[]; message: UIMessage | undefined; error?: Error }> {
  const [forChunks, forMessage] = stream.tee();
  const chunks: UIMessageChunk[] = [];
  const collecting = (async () => {
    for await (const chunk of forChunks as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk);
  })();
  let message: UIMessage | undefined;
  let error: Error | undefined;
  for await (const snapshot of readUIMessageStream({ stream: forMessage, onError: (e) => (error = e as Error) }))
    message = snapshot;
  await collecting;
  return { chunks, message, error };
}

/** The text of a UIMessage's text parts. */
export function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** The fields each chunk type may carry in the SDK's schema (uiMessageChunkSchema): anything else is flagged. */
const CHUNK_FIELDS: Record<string, readonly string[]> = {
  start: ['type', 'messageId', 'messageMetadata'],
  'start-step': ['type'],
  'text-start': ['type', 'id', 'providerMetadata'],
  'text-delta': ['type', 'id', 'delta', 'providerMetadata'],
  'text-end': ['type', 'id', 'providerMetadata'],
  'finish-step': ['type'],
  finish: ['type', 'finishReason', 'messageMetadata'],
  abort: ['type', 'reason'],
  error: ['type', 'errorText'],
  'message-metadata': ['type', 'messageMetadata'],
  'data-state': ['type', 'id', 'data', 'transient'],
  'tool-input-start': ['type', 'toolCallId', 'toolName', 'dynamic'],
  'tool-input-available': ['type', 'toolCallId', 'toolName', 'input', 'dynamic'],
  'tool-approval-request': ['type', 'approvalId', 'toolCallId'],
  'tool-output-available': ['type', 'toolCallId', 'output', 'dynamic'],
  'tool-output-denied': ['type', 'toolCallId'],
};

/** Chunks of a type we do not send, or with a field their schema does not name (as a strict schema would reject). */
export function offSchema(chunks: readonly UIMessageChunk[]): string[] {
  return chunks.flatMap((chunk) => {
    const allowed = CHUNK_FIELDS[chunk.type];
    if (!allowed) return [`unexpected chunk type ${chunk.type}`];
    return Object.keys(chunk)
      .filter((key) => !allowed.includes(key))
      .map((key) => `${chunk.type}.${key}`);
  });
}

class ArrayChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined;
  constructor(public messages: UIMessage[]) {}
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), this.snapshot(message), ...this.messages.slice(index + 1)];
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** useChat without React: the SDK's own Chat class over an array. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(
    id: string,
    transport: DefaultChatTransport<UIMessage>,
    messages: UIMessage[] = [],
    init: Pick<ChatInit<UIMessage>, 'onToolCall' | 'sendAutomaticallyWhen'> = {},
  ) {
    super({ id, transport, state: new ArrayChatState(messages), ...init });
  }
}
