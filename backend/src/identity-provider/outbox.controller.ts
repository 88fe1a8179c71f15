import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Mailer } from '@kora/kernel';
import { Public } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, type Config } from '../config/config';
import { isOperator } from '../health/health.controller';
import { acceptsHtml } from '../http/http-pipeline';
import { OutboxMailer } from '../infra/mail/mailers';
import { escapeHtml } from './pages';

/**
 * /dev/outbox: the mails the embedded outbox holds, for development and tests. Reset links are secrets, so it
 * exists only with the outbox adapter and only for whom the operator named: everyone with `DEV_OUTBOX=on` (a
 * development machine, a test run), otherwise the operators' token (`Authorization: Bearer <OPS_TOKEN>`). Never
 * inferred from the peer's address: behind a reverse proxy every client comes from 127.0.0.1. Operators can also
 * read it with `npm run users -- outbox`.
 */
@ApiExcludeController()
@Controller('dev/outbox')
export class OutboxController {
  constructor(
    @Inject(Mailer) private readonly mailer: Mailer,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  private outbox(request: FastifyRequest): OutboxMailer {
    const allowed = this.config.DEV_OUTBOX === 'on' || isOperator(request, this.config.OPS_TOKEN);
    if (!(this.mailer instanceof OutboxMailer) || !allowed) throw new NotFoundException();
    return this.mailer;
  }

  @Public()
  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const entries = await this.outbox(request).list();
    if (!acceptsHtml(request.headers.accept) || /^application\/json/.test(request.headers.accept ?? '')) {
      await reply.send(entries);
      return;
    }
    const rows = entries
      .map(
        (e) =>
          `<tr><td>${escapeHtml(e.acceptedAt)}</td><td>${escapeHtml(e.to)}</td><td><a href="/dev/outbox/${e.id}">${escapeHtml(e.subject)}</a></td><td>${escapeHtml(e.template)}</td><td>${e.language}</td></tr>`,
      )
      .join('');
    await reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox · Kora</title></head><body><h1>Outbox (${entries.length})</h1><table><thead><tr><th>Sent</th><th>To</th><th>Subject</th><th>Template</th><th>Language</th></tr></thead><tbody>${rows}</tbody></table></body></html>`,
      );
  }

  @Public()
  @Get(':id')
  async show(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const found = await this.outbox(request).read(id);
    if (!found) throw new NotFoundException();
    await reply.type('text/plain; charset=utf-8').send(found.raw);
  }
}
