import { Controller, ForbiddenException, Get, Inject, Req, Res, UnauthorizedException } from '@nestjs/common';
import { bearerToken } from '../../../actor-auth/request-authenticator.js';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { Public } from '../../../actor-auth/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { isLoopbackHost } from '../../../config/loopback.js';
import { PromMetrics } from '../../../metrics/prom-metrics.js';
import { ownNames } from '../hardening/host-guard.js';

/**
 * Prometheus metrics (docs/operations.md#metrics). Not an API route: no actor, not rate limited,
 * not in the OpenAPI document. Without METRICS_TOKEN only this machine may read it, judged by the
 * socket's address and, behind a trusted proxy, by the forwarded client address too; and, with or
 * without API keys, only under this service's own names (Host and Origin), since a page that
 * rebinds its domain to 127.0.0.1 also calls from loopback. With the token, only
 * `Authorization: Bearer <METRICS_TOKEN>`, under any name (a page cannot know the token).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  private readonly tokenDigest: Buffer | null;
  private readonly namesOf: ReturnType<typeof ownNames>;

  constructor(
    private readonly metrics: PromMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.tokenDigest = config.metricsToken === null ? null : digest(config.metricsToken);
    this.namesOf = ownNames(config);
  }

  @Get()
  @Public()
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.admit(req);
    const { contentType, body } = await this.metrics.render();
    res.set('Cache-Control', 'no-store').type(contentType).send(body);
  }

  private admit(req: Request): void {
    if (this.tokenDigest === null) {
      const { hostOk, originOk } = this.namesOf(req);
      const local =
        isLoopbackHost(req.socket.remoteAddress ?? '') && isLoopbackHost(req.ip ?? '') && hostOk && originOk;
      if (!local)
        throw new ForbiddenException(
          'GET /metrics answers callers on this machine, under a loopback name or ALLOWED_HOSTS, only; set METRICS_TOKEN to scrape it from elsewhere',
        );
      return;
    }
    const token = bearerToken(req.headers.authorization);
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!token || !timingSafeEqual(digest(token), this.tokenDigest)) {
      throw new UnauthorizedException('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
