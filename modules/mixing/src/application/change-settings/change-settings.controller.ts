import type { BatchSettingsAnswer, BatchSettingsRequest, MixSessionAnswer, Unchecked } from '@kora/contracts';
import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import type { MixSessionDocument } from '../../contracts/queries';
import { MixCommands } from '../mix-commands';
import { sessionView } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';
import { sessionSettings, trackSettings } from '../sessions/settings';

/** A track's mixing settings, one track at a time or several at once (with the session's style and sample rate). */
@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class ChangeSettingsController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly contexts: CommandContexts,
  ) {}

  @Put('tracks/batch-settings')
  @ApiOperation({
    operationId: 'SessionsController_batchSettings',
    summary: 'Change several tracks’ settings (and the session’s style and sample rate) at once',
  })
  async batchSettings(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Unchecked<BatchSettingsRequest>,
  ): Promise<BatchSettingsAnswer> {
    const updates = Array.isArray(body?.updates)
      ? (body.updates as Array<Unchecked<BatchSettingsRequest['updates'][number]>>)
      : [];
    let last: MixSessionDocument | null = null;
    for (const update of updates) {
      const trackId = typeof update.trackId === 'string' ? update.trackId : '';
      const session = await this.reads.sessionOfTrack(user, trackId);
      const track = session.tracks.find((candidate) => candidate.trackId === trackId)!;
      await this.mixes.execute(
        session._id,
        { type: 'ChangeTrackSettings', trackId, settings: trackSettings(track.filename, update, track.settings) },
        this.contexts.forUser(user.userId),
      );
      last = await this.reads.session(user, session._id);
    }
    if (last && (body.musicalStyle !== undefined || body.mixingStyle !== undefined || body.sampleRate !== undefined)) {
      const settings = sessionSettings(body, last);
      await this.mixes.execute(last._id, { type: 'ChangeSession', ...settings }, this.contexts.forUser(user.userId));
      last = await this.reads.session(user, last._id);
    }
    return { success: true, session: last ? sessionView(last) : null };
  }

  @Put('tracks/:id')
  @ApiOperation({ operationId: 'SessionsController_trackSettings', summary: 'Change one track’s settings' })
  async trackSettings(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') trackId: string,
    @Body() body: unknown,
  ): Promise<MixSessionAnswer> {
    const session = await this.reads.sessionOfTrack(user, trackId);
    const track = session.tracks.find((candidate) => candidate.trackId === trackId)!;
    await this.mixes.execute(
      session._id,
      { type: 'ChangeTrackSettings', trackId, settings: trackSettings(track.filename, body, track.settings) },
      this.contexts.forUser(user.userId),
    );
    return { session: sessionView(await this.reads.session(user, session._id)) };
  }
}
