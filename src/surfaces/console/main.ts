import { parseOptions, USAGE, UsageError, type ConsoleOptions } from './options.js';
import { runConsole } from './run-console.js';

/** npm run chat: an interactive chat with a running server, through the generated client. */
let options: ConsoleOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  if (error.message) process.stderr.write(`${error.message}\n\n`);
  (error.message ? process.stderr : process.stdout).write(`${USAGE}\n`);
  process.exit(error.message ? 64 : 0);
}
const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
process.exitCode = await runConsole(options, {
  input: process.stdin,
  output: process.stdout,
  errors: process.stderr,
  terminal,
});
