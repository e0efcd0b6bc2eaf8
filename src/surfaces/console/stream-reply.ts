import { readEvents, type ChatMemoryClient, type Schemas } from '../../../clients/typescript/src/index.js';
import { ApiError, call } from './api-error.js';
import type { ConsoleIo } from './console-io.js';

export interface StartedReply {
  readonly conversationId: string;
  readonly messageId: string;
  readonly created: boolean;
}

/**
 * One turn through POST /api/chat/stream: writes the reply as its pieces arrive and resolves
 * once it is stored (or failed). `onStarted` gets the ids as soon as the question is stored.
 */
export async function streamReply(
  client: ChatMemoryClient,
  io: ConsoleIo,
  body: Schemas['ChatRequestDto'],
  onStarted: (reply: StartedReply) => void,
): Promise<void> {
  const stream = await call(io.url, client.POST('/api/chat/stream', { body, parseAs: 'stream' }));
  if (!stream) throw new ApiError(null, 'The server sent no stream');
  let text = '';
  for await (const { event, data } of readEvents(stream)) {
    if (event === 'conversation') {
      onStarted({ conversationId: data.conversationId, messageId: data.messageId, created: data.created ?? false });
    } else if (event === 'delta') {
      text += data.text;
      io.out(data.text);
    } else if (event === 'done') {
      io.out('\n');
      if (data.status === 'cancelled') io.err('[reply stopped]\n');
      if (data.status === 'truncated') io.err(`[reply cut: ${data.reason?.message ?? 'a limit was reached'}]\n`);
      return;
    } else {
      if (text) io.out('\n');
      io.err(
        `${new ApiError(data.statusCode, data.message)} (the conversation keeps the partial reply; send again to retry)\n`,
      );
      return;
    }
  }
  if (text) io.out('\n');
  io.err('[connection lost before the reply was finished; it is still stored on the server]\n');
}
