import type { NextFunction, Request, Response } from 'express';

/** Whether a request is for the MCP endpoint. */
export function isMcpPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp/');
}

/** A JSON-RPC error answer with no request id (the request could not be read far enough to have one). */
function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * The body parser's refusals of a `/mcp` body in JSON-RPC's terms, as the protocol's clients
 * read them: text that is not JSON is a Parse error (-32700), JSON the shape check refuses
 * (NUL in a string, nesting or sizes past the limits) an Invalid Request (-32600). Every
 * other error, and every other path, goes on to the REST error filter.
 */
export function mcpBodyErrors(error: unknown, req: Request, res: Response, next: NextFunction): void {
  const { type, status, message } = (error ?? {}) as { type?: unknown; status?: unknown; message?: unknown };
  if (!isMcpPath(req.path) || res.headersSent || status !== 400) return next(error);
  const detail = typeof message === 'string' ? message.slice(0, 200) : 'the body could not be read';
  if (type === 'entity.parse.failed')
    return jsonRpcError(res, 400, -32700, `Parse error: the body is not valid JSON (${detail})`);
  if (type === 'entity.verify.failed') return jsonRpcError(res, 400, -32600, `Invalid Request: ${detail}`);
  next(error);
}
