import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Mailer } from '@kora/kernel';
import { Public } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsHtml } from '../http/http-pipeline';
import { OutboxMailer } from '../infra/mail/mailers';
import { escapeHtml } from './pages';

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * /dev/outbox: the mails the embedded outbox holds, for development and tests. It exists only with the outbox
 * adapter and answers loopback clients only (reset links are secrets).
 */
@ApiExcludeController()
@Controller('dev/outbox')
export class OutboxController {
  constructor(@Inject(Mailer) private readonly mailer: Mailer) {}

  private outbox(request: FastifyRequest): OutboxMailer {
    if (!(this.mailer instanceof OutboxMailer) || !isLoopback(request.raw.socket.remoteAddress))
      throw new NotFoundException();
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
