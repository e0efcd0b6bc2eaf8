import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createChatMemoryClient } from '../../../clients/typescript/src/index.js';
import type { ConsoleIo } from './console-io.js';
import { ConsoleSession } from './console-session.js';
import type { ConsoleOptions } from './options.js';

interface ConsoleStreams {
  readonly input: Readable;
  readonly output: Writable;
  readonly errors: Writable;
  /** A person at a terminal: prompts, line editing, Ctrl+C stops a reply. Otherwise lines are read as they come. */
  readonly terminal: boolean;
}

/**
 * The console chat: one line in, one reply streamed out, until /quit or the end of the input.
 * Resolves with the exit code: 0, or 1 when the server cannot be reached or refuses the key.
 */
export async function runConsole(options: ConsoleOptions, streams: ConsoleStreams): Promise<number> {
  const io: ConsoleIo = {
    url: options.url,
    out: (text) => void streams.output.write(text),
    err: (text) => void streams.errors.write(text),
  };
  const session = new ConsoleSession(createChatMemoryClient({ baseUrl: options.url, apiKey: options.key }), io);
  try {
    await session.connect(options.agent);
  } catch (error) {
    io.err(`${error}\n`);
    return 1;
  }
  const { terminal } = streams;
  const lines = createInterface({
    input: streams.input,
    output: terminal ? streams.output : undefined,
    terminal,
    prompt: '> ',
  });
  if (terminal) {
    io.err(`Connected to ${options.url}. Type a message, or /help. Ctrl+C stops a reply; /quit or Ctrl+D leaves.\n`);
    lines.on('SIGINT', () => {
      session.cancelReply().then(
        (stopped) => stopped || lines.close(),
        (error: unknown) => io.err(`${error}\n`),
      );
    });
    lines.prompt();
  }
  let quit = false;
  for await (const line of lines) {
    try {
      quit = !(await session.handle(line));
    } catch (error) {
      io.err(`${error}\n`);
    }
    if (quit) break;
    if (terminal) lines.prompt();
  }
  if (terminal && !quit) io.out('\n'); // Ctrl+D or Ctrl+C left the cursor after the prompt
  lines.close();
  return 0;
}
