/** Command-line options of the console chat. */
export interface ConsoleOptions {
  readonly url: string;
  readonly key: string | undefined;
  readonly agent: string | undefined;
}

export const USAGE = `Usage: npm run chat -- [--url URL] [--key API_KEY] [--agent NAME]

  --url URL       the server (default http://127.0.0.1:3000, or CHAT_MEMORY_URL)
  --key API_KEY   sent as "Authorization: Bearer API_KEY" (default CHAT_MEMORY_API_KEY;
                  not needed in single-user mode)
  --agent NAME    start with this agent (created if you have none of that name)

Type a message to chat. Commands: /new, /list, /use N, /agent NAME, /help, /quit.
Reads lines from a pipe too: echo "Hello" | npm run --silent chat`;

export class UsageError extends Error {}

/** Reads `--name value` and `--name=value` pairs; `--help` throws UsageError with no message. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ConsoleOptions {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new UsageError('');
    const match = /^--(url|key|agent)(?:=(.*))?$/.exec(arg);
    if (!match) throw new UsageError(`Unknown argument: ${arg}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined || value === '') throw new UsageError(`--${match[1]} needs a value`);
    values[match[1]] = value;
  }
  const url = values.url ?? env.CHAT_MEMORY_URL ?? 'http://127.0.0.1:3000';
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url must be an http(s) URL, got ${url}`);
  return { url, key: values.key ?? (env.CHAT_MEMORY_API_KEY || undefined), agent: values.agent };
}
