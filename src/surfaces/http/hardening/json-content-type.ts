import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../../errors/error-body.js';
import { isArchiveType, isArchiveUpload } from './import-body.js';

/** Methods whose body, if any, a route reads; a body on the others is ignored as HTTP allows. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Runs after the JSON body parsers: a body they left unread came with another content type
 * (or none). Without this the route would see no body at all and complain about a missing
 * field, which sends the client looking in the wrong place.
 */
export function requireJsonBodies(req: Request, res: Response, next: NextFunction): void {
  // A parser that read the body has consumed the stream to its end.
  if (!BODY_METHODS.has(req.method) || req.readableEnded || !hasBody(req)) return next();
  const archive = isArchiveUpload(req);
  // An archive is read by its route, as a stream.
  if (archive && isArchiveType(req)) return next();
  const type = req.headers['content-type']?.split(';')[0].trim();
  const got = type ? `this request's is "${type.slice(0, 100)}"` : 'this request has none';
  // The body stays unread: close the connection rather than read it.
  res.set('Connection', 'close');
  const expected = archive
    ? 'The archive must be sent with Content-Type: application/json, application/zip or application/octet-stream'
    : 'The body must be JSON sent with Content-Type: application/json';
  sendError(res, 415, `${expected}; ${got}`);
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
