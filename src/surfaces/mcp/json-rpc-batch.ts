import type { Request } from 'express';

/** The most messages one JSON-RPC batch may carry: each runs a tool, so a batch is bounded like a page. */
export const MAX_BATCH_MESSAGES = 10;

/**
 * The one MCP protocol version whose Streamable HTTP transport has JSON-RPC batches (2025-06-18
 * removed them). A request without `MCP-Protocol-Version` is taken as this version, as the
 * specification tells servers to.
 */
const BATCH_VERSION = '2025-03-26';

/** Why this body is refused as a batch (a JSON-RPC `Invalid Request`), or null: not a batch, or one this server runs. */
export function batchRefusal(body: unknown, protocolVersion: string | undefined): string | null {
  if (!Array.isArray(body)) return null;
  if (protocolVersion !== undefined && protocolVersion !== BATCH_VERSION) {
    return `Invalid Request: JSON-RPC batches are not part of MCP protocol version ${protocolVersion}; send one message per request`;
  }
  if (body.length > MAX_BATCH_MESSAGES)
    return `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; this one has ${body.length}`;
  return null;
}

/** The protocol version a request names in its `MCP-Protocol-Version` header, if any. */
export function protocolVersionOf(req: Request): string | undefined {
  const header = req.headers['mcp-protocol-version'];
  return Array.isArray(header) ? header.join(', ') : header;
}

/** How many requests a POST counts for against the rate limit: each message of a batch it runs; anything else once. */
export function callsIn(req: Request): number {
  const body: unknown = req.body;
  return Array.isArray(body) && !batchRefusal(body, protocolVersionOf(req)) ? body.length : 1;
}
