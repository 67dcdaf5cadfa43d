import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperationalRoute } from '../common/openapi';
import { ApiMetrics } from './metrics.docs';
import { Registry } from 'prom-client';
import { Metrics } from './metrics';

/** GET /metrics for Prometheus: outside /api, no session; operators keep it off the public listener. */
@ApiOperationalRoute()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @ApiMetrics()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  scrapeMetrics(): Promise<string> {
    return this.metrics.scrape();
  }
}
