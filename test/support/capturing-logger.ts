import type { LoggerService } from '@nestjs/common';

/** Keeps every log line the app writes (debug and verbose aside). */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown, ...rest: unknown[]) {
    this.lines.push([message, ...rest].map(String).join(' '));
  }
  error(message: unknown, ...rest: unknown[]) {
    this.log(message, ...rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.log(message, ...rest);
  }
  debug() {}
  verbose() {}
}
