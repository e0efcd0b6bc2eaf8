import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
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
 * would hold the shutdown until SHUTDOWN_GRACE_MS ran out. So the drain closes every connection
 * with no request in progress, each other one once its answer has ended, and one opened
 * meanwhile that stays silent.
 */
@Injectable()
export class HttpDrain implements OnModuleDestroy {
  private draining = false;
  /** Open connections, with how many requests each has in progress. */
  private readonly connections = new Map<Socket, number>();

  /** Follows the server's connections and requests (before it listens). */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, 0);
      socket.once('close', () => this.connections.delete(socket));
      if (this.draining) setTimeout(() => this.closeIfQuiet(socket), SILENT_CONNECTION_MS).unref();
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      this.connections.set(socket, (this.connections.get(socket) ?? 0) + 1);
      res.once('close', () => {
        if (!this.connections.has(socket)) return;
        this.connections.set(socket, (this.connections.get(socket) ?? 1) - 1);
        if (this.draining) this.closeIfQuiet(socket);
      });
    });
  }

  onModuleDestroy(): void {
    this.draining = true;
    for (const socket of this.connections.keys()) this.closeIfQuiet(socket);
  }

  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    if (!this.draining) return next();
    res.set('Connection', 'close');
    res.set('Retry-After', '5');
    sendError(res, 503, 'The server is shutting down; retry shortly');
  };

  private closeIfQuiet(socket: Socket): void {
    // What was written is still sent first; the client's own close is not waited for.
    if (this.connections.get(socket) === 0) socket.destroySoon();
  }
}
