import type { HealthReport } from '@kora/contracts';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { CodedHttpException } from '../http/error.filter';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { CONFIG, type Config } from '../config/config';
import { Metrics } from '../observability/metrics';
import { HealthService } from './health.service';

/** Whether the request carries the operators' token (`Authorization: Bearer <OPS_TOKEN>`); never when it is unset. */
export function isOperator(request: FastifyRequest, token: string | undefined): boolean {
  return carriesOperatorToken(request.headers.authorization, token);
}

/** Whether an `Authorization` header carries the operators' token (compared in constant time). */
export function carriesOperatorToken(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  if (!given) return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly metrics: Metrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Public()
  @Get('api/health')
  @ApiOperation({
    summary:
      'Status and the names of failing checks; with the operators’ token (OPS_TOKEN) the details of each check (event ' +
      'store, read store, disk space, ffmpeg)',
  })
  @ApiResponse({ status: 200, description: 'Every check is up' })
  @ApiResponse({ status: 503, description: 'At least one check is down; `failing` names it' })
  async check(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const report = await this.health.report();
    // Anyone is told the contract's report; operators get it with each check's details.
    const body: HealthReport = isOperator(request, this.config.OPS_TOKEN)
      ? report
      : { status: report.status, failing: report.failing };
    await reply
      .header('Cache-Control', 'no-store')
      .code(report.status === 'ok' ? 200 : 503)
      .send(body);
  }

  @Public()
  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics in text format (operators’ token: `Authorization: Bearer OPS_TOKEN`)' })
  async scrape(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!isOperator(request, this.config.OPS_TOKEN)) {
      throw new CodedHttpException(401, 'OPS.TOKEN_REQUIRED', 'The operators’ token is required.');
    }
    const text = await this.metrics.registry.metrics();
    await reply.header('Cache-Control', 'no-store').type(this.metrics.registry.contentType).send(text);
  }
}
