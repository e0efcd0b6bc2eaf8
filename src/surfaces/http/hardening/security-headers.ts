import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

const strict = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // The service speaks plain HTTP (TLS belongs to the proxy in front): upgrading would break the page.
      upgradeInsecureRequests: null,
    },
  },
  // Likewise HSTS is the TLS proxy's to send.
  strictTransportSecurity: false,
  // The API is called cross-origin when CORS_ORIGINS allows it.
  crossOriginResourcePolicy: { policy: 'same-site' },
});

// Swagger UI ships inline styles and an inline bootstrap: its pages get their own, looser policy.
const docs = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  strictTransportSecurity: false,
});

/** Security headers (helmet) on every answer: a strict policy, and a looser one for the API docs pages. */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  (req.path.startsWith('/api/docs') ? docs : strict)(req, res, next);
}
