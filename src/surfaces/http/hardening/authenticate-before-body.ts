import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RequestAuthenticator, UNAUTHENTICATED_MESSAGE } from '../../../actor-auth/request-authenticator.js';
import { sendError } from '../../errors/error-body.js';
import { httpErrorOf } from '../../errors/http-error.filter.js';
import { publicRoutes } from './public-routes.js';

/**
 * Authenticates a request that carries a body before the body is read: Nest's guards run
 * after middleware, so without this an unknown caller's 50 MB body would be read and parsed in
 * full before ActorGuard answers 401. A request without a key (and outside single-user mode)
 * to a route that is not @Public() gets the guard's very 401 at once, and the connection is
 * closed rather than drained (a client still sending gets the answer first all the same).
 * Requests without a body are left to ActorGuard, which reuses the answer given here
 * (RequestAuthenticator).
 */
export function authenticateBeforeBody(
  app: INestApplication,
): (req: Request, res: Response, next: NextFunction) => void {
  const authenticator = app.get(RequestAuthenticator);
  const isPublic = publicRoutes(app);
  return (req, res, next) => {
    if (!hasBody(req) || isPublic(req.method, req.path)) return next();
    authenticator.actorOf(req).then(
      (actor) => {
        if (actor) return next();
        res.set('Connection', 'close');
        sendError(res, 401, UNAUTHENTICATED_MESSAGE);
      },
      // Middleware errors skip Nest's filters: a refused address (429) or a database failure is answered here, unread too.
      (error: unknown) => {
        const known = httpErrorOf(error);
        if (!known) return next(error);
        if (known.retryAfterSeconds !== undefined) res.set('Retry-After', String(known.retryAfterSeconds));
        res.set('Connection', 'close');
        sendError(res, known.status, known.message, known.extra);
      },
    );
  };
}

/** Like body-parser's test: a body is announced by Transfer-Encoding or a non-zero Content-Length. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
