import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request, Response } from 'express';
import { sendError } from '../errors/error-body.js';
import { findWebAssets } from './web-assets.js';

/**
 * The policy the page is written for: everything from this service, no inline script or style,
 * no plugins, not framed. Sent with the page unless the application's security headers already
 * set a policy, so that a page that breaks it fails its browser tests either way.
 */
const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web chat page: the static files of `web/` at `/`, a share link's read-only page at
 * `/s/<token>`, and the browser builds of its libraries (Markdown renderer, HTML sanitizer,
 * server-sent events parser, code highlighting, KaTeX for math with its fonts) at `/vendor/`. Public like /health: the page
 * itself holds no data, and its API calls carry the API key (none in single-user mode).
 *
 * Registered on the Express instance after Nest's routes, so an API route always wins and a
 * path that is neither a route nor a file still gets Nest's JSON 404.
 */
@Module({})
export class WebSurfaceModule implements OnModuleInit {
  private readonly logger = new Logger('WebPage');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as ExpressAdapter | undefined;
    if (!adapter) return; // an application context without HTTP
    const assets = findWebAssets();
    if (!existsSync(join(assets.root, 'index.html'))) {
      this.logger.warn(`No web page at ${assets.root}: / is not served`);
      return;
    }
    const setHeaders = (res: Response, path: string) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (path.endsWith('.html') && !res.getHeader('Content-Security-Policy')) {
        res.setHeader('Content-Security-Policy', WEB_CONTENT_SECURITY_POLICY);
      }
    };
    const app = adapter.getInstance<Express>();
    for (const [name, file] of assets.vendor) {
      app.get(`/vendor/${name}`, (_req: Request, res: Response) => {
        setHeaders(res, file);
        res.sendFile(file, (error) => {
          if (error) sendError(res, 404, `Cannot GET /vendor/${name}`);
        });
      });
    }
    // A share link's read-only page (its data comes from GET /api/shared/:token). Kept out of
    // search engines: the header for crawlers that fetch no HTML, the page's own meta tag too.
    const sharePage = join(assets.root, 'share.html');
    app.get('/s/:token', (_req: Request, res: Response) => {
      res.setHeader('X-Robots-Tag', 'noindex, nofollow');
      setHeaders(res, sharePage);
      res.sendFile(sharePage, (error) => {
        if (error) sendError(res, 404, 'Cannot GET /s/');
      });
    });
    // The page's type-checking files live beside it but are not part of it.
    app.get(['/tsconfig.json', /^\/types\//], (req: Request, res: Response) =>
      sendError(res, 404, `Cannot GET ${req.path}`),
    );
    adapter.useStaticAssets(assets.root, {
      index: 'index.html',
      redirect: false,
      dotfiles: 'ignore',
      fallthrough: true,
      setHeaders,
    });
    // At the default level the start-up line (main.ts) says it: one line, not one per module.
    this.logger.debug(`Web chat page at / (files from ${assets.root})`);
  }
}
