import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CLOCK, type Clock, BlobStore, verifyLink } from '@kora/kernel';
import { Public, sendBlob } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetMixSession, type MixSessionDocument } from '../../contracts/queries';
import { MixLinkExpiredError, MixLockedError, SessionNotFoundError } from '../../domain/errors';
import { MIXING_OPTIONS, type MixingOptions } from '../mixing-options';
import type { MixLinkClaims } from './mix-files';

/** The links of the "your mix is ready" e-mails: public (the signature is the credential), valid 7 days. */
@ApiTags('mixing')
@Controller('api/mixing')
export class DownloadMixController {
  constructor(
    private readonly queries: QueryBus,
    private readonly blobs: BlobStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MIXING_OPTIONS) private readonly options: MixingOptions,
  ) {}

  @Public()
  @Get('download/:token')
  @ApiOperation({ summary: 'Download an e-mailed mix result (signed link, 7 days)' })
  async download(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const claims = verifyLink<MixLinkClaims>(token, this.options.linkSecret);
    if (!claims || typeof claims.f !== 'string') throw new SessionNotFoundError();
    if (claims.e * 1000 < this.clock.now().getTime()) {
      throw new MixLinkExpiredError();
    }
    const session = await this.queries.execute<GetMixSession, MixSessionDocument | null>(
      new GetMixSession(claims.u, claims.m),
    );
    const key = session && Object.hasOwn(session.files, claims.f) ? session.files[claims.f] : undefined;
    if (!session || !key) throw new SessionNotFoundError();
    // A link never gives more than the session gives its owner: the mix and its tracks only once unlocked.
    if (claims.f !== 'preview' && !session.unlocked) {
      throw new MixLockedError();
    }
    await sendBlob(this.blobs, key, request, reply, {
      filename: `${session.name.replace(/<[^>]*>?/g, '') || 'mix'}_${claims.f}`,
      download: true,
    });
  }
}
