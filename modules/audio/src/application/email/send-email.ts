import type { ResultEmailAnswer, ResultEmailRequest, Unchecked } from '@kora/contracts';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetPreferences, GetProfile, type PreferencesDocument, type ProfileDocument } from '@kora/identity/contracts';
import {
  BlobStore,
  CLOCK,
  type Clock,
  Mailer,
  PersonalDataVault,
  RateLimiter,
  ReadStore,
  signLink,
  verifyLink,
  ValidationFailedError,
} from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser, Public, sendBlob } from '@kora/kernel/nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { GetTrack, type TrackDocument } from '../../contracts/queries';
import {
  LinkExpiredError,
  ResultNotReadyError,
  ShareLimitError,
  TrackLockedError,
  TrackNotFoundError,
} from '../../domain/errors';
import { AUDIO_OPTIONS, type AudioOptions } from '../audio-options';
import { TrackCommands } from '../track-commands';
import { stripTags } from '../tracks/track-view';
import { resultMail } from './result-mail';
import { needsUnlock, offeredDownloads, STEMS_ZIP } from './result-links';
import { stemsZipEntries, zipBlobs, zipLength } from './stems-zip';
import type { FieldCode } from '@kora/contracts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** The codes `send-email` puts in `fields` (`MODULE.PROBLEM`, docs/api.md). */
export const EMAIL_FIELD_CODES = {
  invalidAddress: 'EMAIL.INVALID_ADDRESS',
  trackRequired: 'EMAIL.TRACK_REQUIRED',
} as const satisfies Record<string, FieldCode>;
/** How long an e-mailed link works. */
export const LINK_DAYS = 7;
/**
 * Results sent to addresses other than the account's own verified one, per account and day: enough to share with a
 * collaborator, too few to make the server a mailer for strangers. The account's own address has no such limit.
 */
export const SHARES_PER_DAY = { limit: 5, windowSeconds: 24 * 60 * 60 };

interface LinkClaims {
  /** Track id. */
  t: string;
  /** Owner. */
  u: string;
  /** File: master, preview or stem-<name>. */
  f: string;
  /** Expiry, seconds since the epoch. */
  e: number;
}

@ApiTags('audio')
@Controller('api/audio')
export class SendEmailController {
  constructor(
    private readonly queries: QueryBus,
    private readonly mailer: Mailer,
    private readonly vault: PersonalDataVault,
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
    private readonly blobs: BlobStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AUDIO_OPTIONS) private readonly options: AudioOptions,
    reads: ReadStore,
  ) {
    this.shares = new RateLimiter(reads, () => this.clock.now().getTime());
  }

  private readonly shares: RateLimiter;

  /**
   * Sends the result as download links that work for 7 days, written in the account's language. To the account's
   * own verified address at will; to others, `SHARES_PER_DAY` a day (429 `EMAIL.DAILY_LIMIT`). The subject names no
   * file: nothing the user wrote reaches a stranger's inbox list.
   */
  @Post('send-email')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'E-mail the result as download links valid 7 days' })
  async send(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Unchecked<ResultEmailRequest>,
  ): Promise<ResultEmailAnswer> {
    const recipient = typeof body?.recipientEmail === 'string' ? body.recipientEmail.trim() : '';
    const fields: Record<string, FieldCode> = {};
    if (!EMAIL.test(recipient)) fields.recipientEmail = EMAIL_FIELD_CODES.invalidAddress;
    if (typeof body?.trackId !== 'string' || !body.trackId) fields.trackId = EMAIL_FIELD_CODES.trackRequired;
    if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
    const track = await this.queries.execute<GetTrack, TrackDocument | null>(
      new GetTrack(user.userId, body.trackId as string),
    );
    if (!track) throw new TrackNotFoundError();
    const preferences = await this.queries.execute<GetPreferences, PreferencesDocument | null>(
      new GetPreferences(user.userId),
    );
    const language = preferences?.language ?? 'fr';
    // Unlocked: every download the result screen offers (both WAV masters, the enhanced file, or each stem and the
    // zip); locked: the free preview.
    const offered = track.unlocked
      ? await offeredDownloads(this.blobs, track)
      : [{ file: 'preview', label: { en: 'Preview', fr: 'Aperçu' } }];
    if (offered.length === 0 || !offered.every((entry) => entry.file === STEMS_ZIP || track.files[entry.file])) {
      throw new ResultNotReadyError();
    }
    if (!(await this.isOwnAddress(user.userId, recipient))) {
      const wait = await this.shares.hit(`result-mail:${user.userId}`, SHARES_PER_DAY);
      if (wait > 0) throw new ShareLimitError(SHARES_PER_DAY.limit, wait);
    }
    const now = this.clock.now();
    const expires = new Date(now.getTime() + LINK_DAYS * 24 * 60 * 60 * 1000);
    const links = offered.map((entry) => ({
      label: entry.label[language],
      url: `${this.options.publicUrl}/api/audio/download/${signLink({ t: track._id, u: user.userId, f: entry.file, e: Math.floor(expires.getTime() / 1000) }, this.options.linkSecret)}`,
    }));
    await this.tracks.execute(
      track._id,
      {
        type: 'RecordEmail',
        recipientFingerprint: this.vault.fingerprint(recipient.toLowerCase()),
        expiresAt: expires.toISOString(),
      },
      this.contexts.forUser(user.userId),
    );
    await this.mailer.send(resultMail(recipient, language, stripTags(track.filename), track.unlocked, links, expires));
    return { success: true, expiresAt: expires.toISOString() };
  }

  /** Whether `recipient` is the account's own address, as the provider verified it. */
  private async isOwnAddress(userId: string, recipient: string): Promise<boolean> {
    const profile = await this.queries.execute<GetProfile, ProfileDocument | null>(new GetProfile(userId));
    if (!profile?.isEmailVerified) return false;
    const own = await this.vault.open(userId, profile.email);
    return own !== null && own.trim().toLowerCase() === recipient.toLowerCase();
  }

  /** The link in the e-mail: public (the signature is the credential), valid 7 days. */
  @Public()
  @Get('download/:token')
  @ApiOperation({ summary: 'Download an e-mailed result (signed link, 7 days)' })
  async download(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const claims = verifyLink<LinkClaims>(token, this.options.linkSecret);
    if (!claims) throw new TrackNotFoundError();
    if (claims.e * 1000 < this.clock.now().getTime()) throw new LinkExpiredError();
    const track = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(claims.u, claims.t));
    if (!track) throw new TrackNotFoundError();
    // A link never gives more than the track gives its owner: the full result only once unlocked.
    if (needsUnlock(claims.f) && !track.unlocked) throw new TrackLockedError();
    const base = stripTags(track.filename).replace(/\.[^.]*$/, '') || 'kora';
    if (claims.f === STEMS_ZIP) {
      const entries = await stemsZipEntries(this.blobs, track);
      if (!entries) throw new TrackNotFoundError();
      const filename = `${base}_stems.zip`.replace(/["\\\r\n]/g, '');
      reply.headers({
        'content-type': 'application/zip',
        'content-length': String(zipLength(entries)),
        'cache-control': 'private, max-age=0, must-revalidate',
        'content-disposition': `attachment; filename="${filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      });
      if (request.method === 'HEAD') {
        reply.hijack();
        reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
        reply.raw.end();
        return;
      }
      await reply.code(200).send(zipBlobs(this.blobs, entries, this.clock.now()));
      return;
    }
    const key = Object.hasOwn(track.files, claims.f) ? track.files[claims.f] : undefined;
    if (!key) throw new TrackNotFoundError();
    await sendBlob(this.blobs, key, request, reply, {
      filename: `${base}_${claims.f.replace(/^stem-/, '')}`,
      download: true,
    });
  }
}
