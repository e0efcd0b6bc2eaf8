import type { Request } from 'express';
import type { ErrorFormat } from '../../errors/error-body.js';
import { isMcpPath } from '../json-rpc-errors.js';

/** The protected resource metadata of `/mcp` (RFC 9728: the well-known path, then the resource's path). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';

/** The Express setting that holds PUBLIC_BASE_URL, for answers written far from the configuration (a 401's header). */
export const PUBLIC_BASE_URL_SETTING = 'chat-memory public base url';

/** A Host header as a URL's authority: names, IPv4, [IPv6] and a port; anything else is not echoed. */
const AUTHORITY = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** This server's origin as its clients reach it: PUBLIC_BASE_URL, else the request's own scheme and Host. */
export function baseUrlOf(req: Request, publicBaseUrl: string | null): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/+$/, '');
  const host = req.get('host');
  return `${req.protocol}://${host && AUTHORITY.test(host) ? host : 'localhost'}`;
}

/** The `WWW-Authenticate` of a 401 on `/mcp`: where an MCP host finds how to get a token. */
function mcpChallenge(req: Request): string {
  const configured = req.app?.get(PUBLIC_BASE_URL_SETTING) as string | null | undefined;
  return `Bearer resource_metadata="${baseUrlOf(req, configured ?? null)}${PROTECTED_RESOURCE_PATH}"`;
}

/** On /mcp a 401 also names the protected resource metadata, where MCP hosts start their OAuth flow (RFC 9728). */
export const MCP_ERROR_FORMAT: ErrorFormat = { matches: isMcpPath, challenge: mcpChallenge };
