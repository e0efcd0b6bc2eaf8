/** An error as a log line shows it: its stack when it has one, else its message, else what it is. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
