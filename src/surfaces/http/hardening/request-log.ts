import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithActor } from '../../../actor-auth/actor.guard.js';
import { runInRequestScope } from '../../../logging/request-scope.js';

const logger = new Logger('HTTP');
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
const HEALTH_PROBE = /^\/health(\/ready)?\/?$/;

/**
 * One log line per request, with a request id (taken from X-Request-Id when the caller sends
 * a sane one, else made) that is also returned in X-Request-Id. It logs the method, the path
 * (never the query string: it may hold search text), the status, the time and the actor;
 * never a header, a key or any content.
 */
export function requestLog(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('x-request-id');
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.set('X-Request-Id', id);
  res.locals.requestId = id;
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const actor = (req as RequestWithActor).actor?.id ?? '-';
    const line = `${req.method} ${req.path} ${res.statusCode} ${ms.toFixed(1)}ms actor=${actor} request=${id}`;
    // Probes come every few seconds and would drown the log: a passing one only at LOG_LEVEL=debug.
    if (HEALTH_PROBE.test(req.path) && res.statusCode < 400) logger.debug(line);
    else logger.log(line);
  });
  next();
}

/** Lets every line logged while the request is served name its request id and actor. */
export function requestScope(req: Request, res: Response, next: NextFunction): void {
  const requestId = typeof res.locals.requestId === 'string' ? res.locals.requestId : '-';
  runInRequestScope({ requestId, actor: () => (req as RequestWithActor).actor?.id }, next);
}
