import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { sendError } from '../errors/error-body.js';

/** How long a connection opened during the drain may stay silent before it is closed. */
const SILENT_CONNECTION_MS = 1_000;

/**
 * Shutdown for HTTP: once the application starts closing, new requests get a JSON 503 (with
 * `Connection: close`) while requests already running finish. Destroy hooks run before the
 * chat service's drain, so no new turn slips in while it waits.
 *
 * Node's `server.close()` waits for every connection to end, and itself closes only those idle
 * between two requests: a connection that never sent one (a browser opens some ahead of need)
 * would hold the shutdown until SHUTDOWN_GRACE_MS ran out, and one answered after the drain
 * began would stay open for its keep-alive. So the drain closes silent connections at once, each
 * other one as soon as its answer has ended, and one opened meanwhile that stays silent. It
 * follows connections, not requests: nothing is added to a request's path.
 */
@Injectable()
export class HttpDrain implements OnModuleDestroy {
  private draining = false;
  private server: Server | null = null;
  private readonly connections = new Set<Socket>();

  /** Follows the server's connections (before it listens). */
  watch(server: Server): void {
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
      if (this.draining) setTimeout(() => closeIfSilent(socket), SILENT_CONNECTION_MS).unref();
    });
  }

  onModuleDestroy(): void {
    this.draining = true;
    if (!this.server) return;
    // Node applies keepAliveTimeout to a connection once its answer has ended: from now on, at once.
    // (Connections idle between two requests are closed by `server.close()` itself.)
    this.server.keepAliveTimeout = 1;
    for (const socket of this.connections) closeIfSilent(socket);
  }

  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    if (!this.draining) return next();
    res.set('Connection', 'close');
    res.set('Retry-After', '5');
    sendError(res, 503, 'The server is shutting down; retry shortly');
  };
}

/** A connection that has not sent a byte has no request to finish. */
function closeIfSilent(socket: Socket): void {
  if (socket.bytesRead === 0) socket.destroy();
}
