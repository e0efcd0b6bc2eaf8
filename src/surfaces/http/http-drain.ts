import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../errors/error-body.js';

/**
 * Shutdown for HTTP: once the application starts closing, new requests get a JSON 503 (with
 * `Connection: close`) while requests already running finish. Destroy hooks run before the
 * chat service's drain, so no new turn slips in while it waits.
 */
@Injectable()
export class HttpDrain implements OnModuleDestroy {
  private draining = false;

  onModuleDestroy(): void {
    this.draining = true;
  }

  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    if (!this.draining) return next();
    res.set('Connection', 'close');
    res.set('Retry-After', '5');
    sendError(res, 503, 'The server is shutting down; retry shortly');
  };
}
