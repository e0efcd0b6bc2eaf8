import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { RequestAuthenticator } from '../../../actor-auth/request-authenticator.js';

/** The route that reads an export back: an export can be far larger than any other request. */
const IMPORT_PATH = '/api/conversations/import';
const JSON_TYPE = /^application\/(json|merge-patch\+json)\s*(;|$)/i;
/** The route that reads other tools' archives as a stream: no body parser reads it. */
const ARCHIVE_PATH = '/api/imports';
const ARCHIVE_TYPE = /^application\/(json|octet-stream|zip|x-zip-compressed)\s*(;|$)/i;
/** What browsers and tools send for a .zip file (x-zip-compressed: browsers on Windows). */
const ZIP_TYPE = /^application\/(zip|x-zip-compressed)\s*(;|$)/i;
const LARGE_BODY = Symbol('largeBodyAllowed');

type Marked = { [LARGE_BODY]?: boolean };
type MarkedRequest = Request & Marked;

/**
 * Lets an import read up to IMPORT_BODY_LIMIT_BYTES, so that every export imports back, while
 * every other body keeps BODY_LIMIT_BYTES. The caller is authenticated first: an anonymous
 * request never makes the server read a large body (the guard still decides afterwards).
 */
export function allowLargeImportBodies(authenticator: RequestAuthenticator) {
  return (req: MarkedRequest, _res: Response, next: NextFunction): void => {
    if (
      req.method !== 'POST' ||
      (req.url ?? '').split('?')[0] !== IMPORT_PATH ||
      !JSON_TYPE.test(req.headers['content-type'] ?? '')
    )
      return next();
    authenticator.actorOf(req).then(
      (actor) => {
        if (actor) req[LARGE_BODY] = true;
        next();
      },
      () => next(),
    );
  };
}

/** The `type` test of the JSON parser that reads large import bodies. */
export function isAllowedLargeBody(req: IncomingMessage): boolean {
  return (req as IncomingMessage & Marked)[LARGE_BODY] === true;
}

/** The `type` test of the JSON parser of every other body: JSON, but never an archive upload, which its route streams. */
export function isParsedJsonBody(req: IncomingMessage): boolean {
  return !isArchiveUpload(req) && JSON_TYPE.test(req.headers['content-type'] ?? '');
}

/** A POST to the archive route: its body is left to the route, which reads it as a stream. */
export function isArchiveUpload(req: IncomingMessage): boolean {
  return req.method === 'POST' && (req.url ?? '').split('?')[0] === ARCHIVE_PATH;
}

/** Whether an archive upload was declared a ZIP. */
export function isZipType(req: IncomingMessage): boolean {
  return ZIP_TYPE.test(req.headers['content-type'] ?? '');
}

/** Whether an archive upload came in a type its route reads (JSON, a ZIP, or bytes). */
export function isArchiveType(req: IncomingMessage): boolean {
  return ARCHIVE_TYPE.test(req.headers['content-type'] ?? '');
}
