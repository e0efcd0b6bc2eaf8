import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';

/** `{ statusCode, error, message, ...extra }`, the shape of every error answer. */
export function errorBody(statusCode: number, message: string, extra: object = {}): Record<string, unknown> {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra };
}

/** Writes the common error body (or just ends a response whose headers are already out). */
export function sendError(response: Response, statusCode: number, message: string, extra: object = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  // RFC 6750: a 401 names the scheme to use (MCP clients read it to know a bearer key is wanted).
  if (statusCode === 401) response.set('WWW-Authenticate', 'Bearer');
  response.status(statusCode).json(errorBody(statusCode, message, extra));
}
