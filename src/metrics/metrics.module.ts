import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics.js';
import { PromMetrics } from './prom-metrics.js';

/** One metrics registry per app; domain code injects `Metrics`, the /metrics route `PromMetrics`. */
@Global()
@Module({
  providers: [PromMetrics, { provide: Metrics, useExisting: PromMetrics }],
  exports: [Metrics, PromMetrics],
})
export class MetricsModule {}
