/** Where the console writes: replies and command results to `out`, notices and errors to `err`. */
export interface ConsoleIo {
  readonly url: string;
  out(text: string): void;
  err(text: string): void;
}
