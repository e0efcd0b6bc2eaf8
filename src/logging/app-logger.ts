import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { currentRequestScope } from './request-scope.js';

type LogThreshold = 'error' | 'warn' | 'log' | 'debug' | 'verbose';

const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Nest's start-up chatter (a line per module and per route): shown at LOG_LEVEL=debug only. */
const START_UP_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

export interface AppLoggerOptions {
  readonly format: 'text' | 'json';
  readonly level: LogThreshold;
  /** Whether the output is a terminal: colours only then (and never with NO_COLOR). */
  readonly terminal: boolean;
}

/**
 * The application's logger: Nest's console logger, in text or one JSON object per line
 * (LOG_FORMAT), filtered by LOG_LEVEL, without colours unless writing to a terminal, without
 * the start-up chatter at the default level, and with the request id and actor on every line
 * written while a request is served. What a line says is the caller's business: no key and no
 * message content is ever passed to it.
 */
export class AppLogger extends ConsoleLogger {
  private readonly startUpChatter: boolean;
  /** The last second formatted, and its text: every request writes a line, and Intl formatting is not cheap. */
  private stampSecond = -1;
  private stamp = '';

  constructor(options: AppLoggerOptions) {
    const json = options.format === 'json';
    super({
      json,
      colors: !json && options.terminal && !process.env.NO_COLOR,
      // JSON: requestId and actor as fields of their own.
      flattenParams: true,
      logLevels: LEVELS.slice(0, LEVELS.indexOf(options.level) + 1),
    });
    this.startUpChatter = LEVELS.indexOf(options.level) >= LEVELS.indexOf('debug');
  }

  /** Nest's timestamp (to the second), formatted once per second. */
  protected override getTimestamp(): string {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.stampSecond) {
      this.stamp = super.getTimestamp();
      this.stampSecond = second;
    }
    return this.stamp;
  }

  protected override printMessages(
    messages: unknown[],
    context = '',
    logLevel: LogLevel = 'log',
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    if (logLevel === 'log' && !this.startUpChatter && START_UP_CONTEXTS.has(context)) return;
    const scope = currentRequestScope();
    // The request log line (context HTTP) carries both already.
    if (scope && context !== 'HTTP') {
      const actor = scope.actor() ?? '-';
      if (this.options.json) params = { ...params, requestId: scope.requestId, actor };
      else
        messages = messages.map((m) => (typeof m === 'string' ? `${m} actor=${actor} request=${scope.requestId}` : m));
    }
    super.printMessages(messages, context, logLevel, writeStreamType, errorStack, params);
  }
}
