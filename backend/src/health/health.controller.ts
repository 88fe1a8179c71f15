import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@kora/kernel/nest';
import type { FastifyReply } from 'fastify';
import { Metrics } from '../observability/metrics';
import { HealthService } from './health.service';

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly metrics: Metrics,
  ) {}

  @Public()
  @Get('api/health')
  @ApiOperation({ summary: 'Event store, read store, disk space and ffmpeg; 503 naming the failing part' })
  @ApiResponse({ status: 200, description: 'Every check is up' })
  @ApiResponse({ status: 503, description: 'At least one check is down; `failing` names it' })
  async check(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.health.report();
    await reply
      .header('Cache-Control', 'no-store')
      .code(report.status === 'ok' ? 200 : 503)
      .send(report);
  }

  @Public()
  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics in text format' })
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const text = await this.metrics.registry.metrics();
    await reply.header('Cache-Control', 'no-store').type(this.metrics.registry.contentType).send(text);
  }
}
