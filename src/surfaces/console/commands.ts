/** What one input line asks for. */
type ConsoleCommand =
  | { kind: 'message'; text: string }
  | { kind: 'new' }
  | { kind: 'list' }
  | { kind: 'use'; index: number }
  | { kind: 'agent'; name: string | undefined }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'empty' }
  | { kind: 'invalid'; problem: string };

export const HELP = `Commands:
  /new          start a new conversation (with the current agent, if any)
  /list         your recent conversations, numbered
  /use N        continue conversation N of the last /list
  /agent NAME   talk to agent NAME (created if missing); /agent alone lists them, /agent none leaves
  /quit         leave (end of input does the same)
Anything else is sent as a message; start it with // to send a line beginning with /.`;

export function parseLine(line: string): ConsoleCommand {
  const text = line.trim();
  if (!text) return { kind: 'empty' };
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'message', text };
  const [name, ...rest] = text.slice(1).split(/\s+/);
  const argument = rest.join(' ');
  switch (name.toLowerCase()) {
    case 'new':
      return { kind: 'new' };
    case 'list':
      return { kind: 'list' };
    case 'use': {
      const index = Number(argument);
      return Number.isInteger(index) && index >= 1
        ? { kind: 'use', index }
        : { kind: 'invalid', problem: 'Usage: /use N (a number from /list)' };
    }
    case 'agent':
      return { kind: 'agent', name: argument || undefined };
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'quit':
    case 'exit':
      return { kind: 'quit' };
    default:
      return { kind: 'invalid', problem: `Unknown command /${name}: /help lists the commands` };
  }
}
