import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ApiKeyAuthenticator } from '../../../actor-auth/api-key-authenticator.js';
import type { AppConfig } from '../../../config/app-config.js';
import { normalizeHostPort, originHostName } from '../../../config/host-names.js';
import { isLoopbackHost } from '../../../config/loopback.js';
import { sendError } from '../../errors/error-body.js';

const logger = new Logger('HostGuard');

/**
 * Against DNS rebinding: single-user mode trusts that only this machine reaches the service,
 * but a page on an attacker's domain that re-resolves to 127.0.0.1 is same-origin with it, and
 * CORS does not apply. Its requests still name the attacker's domain in `Host` (and, on writes
 * and module scripts, in `Origin`). So while no key exists, only loopback names, ALLOWED_HOSTS
 * and (for Origin) CORS_ORIGINS are answered; the rest gets a 403 before the body is read or any
 * handler runs. With keys the key is the protection, and only ALLOWED_HOSTS, when set, applies.
 *
 * Paths whose protocol requires it (`strictOrigin`: `/mcp`, as the MCP transport specification
 * does) always apply the Origin rule, keys or not; the composition of the app names them.
 *
 * A request without Host (HTTP/1.0; Node refuses HTTP/1.1 without one) passes the Host rule:
 * browsers always send it. The Telegram webhook is mounted ahead of this (its secret is its check).
 */
export function hostGuard(
  config: AppConfig,
  authenticator: Pick<ApiKeyAuthenticator, 'isSingleUser'>,
  strictOrigin?: StrictOriginPaths,
): RequestHandler {
  const namesOf = ownNames(config);
  const extra = config.allowedHosts;

  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.headers.host;
    const origin = req.headers.origin;
    const { hostOk, originOk } = namesOf(req);
    if (hostOk && originOk) return next();
    // A page must not drive, say, an MCP host's connection with the key the host holds: 403 whether or not keys exist.
    if (!originOk && strictOrigin?.matches(req.path)) {
      return refuse(
        res,
        `Origin ${quote(origin)} is not allowed on ${strictOrigin.name}: only pages on localhost, 127.0.0.1, [::1], ALLOWED_HOSTS or CORS_ORIGINS may call it`,
      );
    }
    if (!hostOk && extra.length > 0)
      return refuse(res, `Host ${quote(host)} is not allowed: it is neither a loopback name nor in ALLOWED_HOSTS`);
    // Only a foreign request costs the look-up of stored keys.
    authenticator.isSingleUser().then(
      (singleUser) => {
        if (!singleUser) return next();
        refuse(
          res,
          hostOk
            ? `Origin ${quote(origin)} is not allowed: without API keys only pages on localhost, 127.0.0.1, [::1], ALLOWED_HOSTS or CORS_ORIGINS may call this service`
            : `Host ${quote(host)} is not allowed: without API keys this service answers only localhost, 127.0.0.1 and [::1] (add names with ALLOWED_HOSTS)`,
        );
      },
      (error: Error) => {
        logger.error(`Could not check for API keys: ${error.message}`);
        res.set('Connection', 'close');
        sendError(res, 503, 'Could not check the API keys; retry later');
      },
    );
  };
}

/** Paths that refuse a foreign Origin even when API keys exist, and how a refusal names them. */
interface StrictOriginPaths {
  matches(path: string): boolean;
  readonly name: string;
}

/**
 * Whether a request's `Host` and `Origin` name this service as its own users reach it: a
 * loopback name or ALLOWED_HOSTS (and, for Origin, CORS_ORIGINS). A request without the header
 * passes that half: browsers always send Host, and Origin on every request that could write.
 */
export function ownNames(config: AppConfig): (req: Request) => { hostOk: boolean; originOk: boolean } {
  const extra = new Set(config.allowedHosts);
  const allowedName = (name: string | null) => name !== null && (isLoopbackHost(name) || extra.has(name));
  const cors = new Set(config.corsOrigins);
  return (req) => {
    const { host, origin } = req.headers;
    return {
      hostOk: host === undefined || allowedName(normalizeHostPort(host)),
      originOk: origin === undefined || cors.has(origin) || allowedName(originHostName(origin)),
    };
  };
}

function refuse(res: Response, message: string): void {
  // The body is left unread: close the connection rather than read it.
  res.set('Connection', 'close');
  sendError(res, 403, message);
}

/** The header as sent, JSON-quoted and cut short: it is the caller's text. */
function quote(value: string | undefined): string {
  return JSON.stringify((value ?? '').slice(0, 100));
}
