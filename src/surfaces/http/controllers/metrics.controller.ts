import { Controller, ForbiddenException, Get, Inject, Req, Res, UnauthorizedException } from '@nestjs/common';
import { bearerToken } from '../../../actor-auth/request-authenticator.js';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { Public } from '../../../actor-auth/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { isLoopbackHost } from '../../../config/loopback.js';
import { PromMetrics } from '../../../metrics/prom-metrics.js';

/**
 * Prometheus metrics (docs/operations.md#metrics). Not an API route: no actor, not rate limited,
 * not in the OpenAPI document. Without METRICS_TOKEN only this machine may read it, judged by the
 * socket's address (a Host header is the caller's to choose) and, behind a trusted proxy, by the
 * forwarded client address too; with it, only `Authorization: Bearer <METRICS_TOKEN>`.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  private readonly tokenDigest: Buffer | null;

  constructor(
    private readonly metrics: PromMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.tokenDigest = config.metricsToken === null ? null : digest(config.metricsToken);
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
      const local = isLoopbackHost(req.socket.remoteAddress ?? '') && isLoopbackHost(req.ip ?? '');
      if (!local) throw new ForbiddenException('GET /metrics answers loopback callers only; set METRICS_TOKEN to scrape it from elsewhere');
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
