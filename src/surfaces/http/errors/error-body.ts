import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { codeOfStatus } from './error-codes.js';

/**
 * `{ statusCode, error, code, message, ...extra }`, the shape of every error answer. `code` is
 * the stable machine code (ERROR_BODY_CODES): a domain error's own when `extra` carries it,
 * else the one of the status.
 */
export function errorBody(statusCode: number, message: string, extra: { readonly code?: string; readonly [field: string]: unknown } = {}): Record<string, unknown> {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code: codeOfStatus(statusCode), message, ...extra };
}

/** Writes the common error body (or just ends a response whose headers are already out). */
export function sendError(response: Response, statusCode: number, message: string, extra: { readonly code?: string; readonly [field: string]: unknown } = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  // RFC 6750: a 401 names the scheme to use (MCP clients read it to know a bearer key is wanted).
  if (statusCode === 401) response.set('WWW-Authenticate', 'Bearer');
  response.status(statusCode).json(errorBody(statusCode, message, extra));
}
