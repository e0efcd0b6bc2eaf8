import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { codeOfStatus } from './error-codes.js';
import { isOpenAiPath, openAiErrorBody } from '../../openai/openai-error.js';
import { isMcpPath } from '../../mcp/json-rpc-errors.js';
import { mcpChallenge } from '../../mcp/oauth/resource-metadata.js';

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

/** Writes the common error body (or just ends a response whose headers are already out). */
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
  // RFC 6750: a 401 names the scheme to use (MCP clients read it to know a bearer key is wanted).
  // On /mcp it also names the protected resource metadata, where MCP hosts start their OAuth flow (RFC 9728).
  if (statusCode === 401)
    response.set(
      'WWW-Authenticate',
      response.req && isMcpPath(response.req.path) ? mcpChallenge(response.req) : 'Bearer',
    );
  // What answers a /v1 request before its controller (a missing key, a body refused, an unknown route) speaks OpenAI's shape.
  if (isOpenAiPath(response.req?.path)) {
    response
      .status(statusCode)
      .json(
        openAiErrorBody(
          statusCode,
          message,
          statusCode === 401 ? 'invalid_api_key' : (extra.code ?? codeOfStatus(statusCode)),
        ),
      );
    return;
  }
  response.status(statusCode).json(errorBody(statusCode, message, extra));
}
