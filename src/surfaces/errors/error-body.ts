import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { codeOfStatus } from './error-codes.js';

/**
 * How a protocol with an error shape of its own (OpenAI's under /v1, MCP's challenge on /mcp)
 * has its paths' error answers written, including those given before its controllers run (a
 * missing key, a body refused, an unknown route). The app's composition lists them in the
 * Express setting ERROR_FORMATS_SETTING; any other path gets the common body.
 */
export interface ErrorFormat {
  matches(path: string): boolean;
  /** The body of an error answer; absent, the common body. `code` is the one the common body would carry. */
  body?(statusCode: number, message: string, code: string): unknown;
  /** The `WWW-Authenticate` of a 401; absent, `Bearer`. */
  challenge?(req: Request): string;
}

/** The Express setting that holds the ErrorFormats, for answers written far from the app's composition. */
export const ERROR_FORMATS_SETTING = 'chat-memory error formats';

/**
 * `{ statusCode, error, code, message, ...extra }`, the shape of every error answer. `code` is
 * the stable machine code (ERROR_BODY_CODES): a domain error's own when `extra` carries it,
 * else the one of the status.
 */
export function errorBody(
  statusCode: number,
  message: string,
  extra: { readonly code?: string; readonly [field: string]: unknown } = {},
): Record<string, unknown> {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code: codeOfStatus(statusCode), message, ...extra };
}

/** Writes the error answer of the request's path (or just ends a response whose headers are already out). */
export function sendError(
  response: Response,
  statusCode: number,
  message: string,
  extra: { readonly code?: string; readonly [field: string]: unknown } = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const req = response.req as Request | undefined;
  const format = req ? formatOf(req) : undefined;
  // RFC 6750: a 401 names the scheme to use (MCP clients read it to know a bearer key is wanted).
  if (statusCode === 401) response.set('WWW-Authenticate', (req && format?.challenge?.(req)) ?? 'Bearer');
  if (format?.body) {
    response.status(statusCode).json(format.body(statusCode, message, extra.code ?? codeOfStatus(statusCode)));
    return;
  }
  response.status(statusCode).json(errorBody(statusCode, message, extra));
}

function formatOf(req: Request): ErrorFormat | undefined {
  const formats = req.app?.get(ERROR_FORMATS_SETTING) as readonly ErrorFormat[] | undefined;
  return formats?.find((format) => format.matches(req.path));
}
