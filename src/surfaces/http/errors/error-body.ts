import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';

/** Writes `{ statusCode, error, message, ...extra }`, the shape of every error answer. */
export function sendError(response: Response, statusCode: number, message: string, extra: object = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.status(statusCode).json({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...extra });
}
