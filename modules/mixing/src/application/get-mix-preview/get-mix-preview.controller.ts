import type { MixPreview } from '@kora/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { resultTracks, sessionView } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class GetMixPreviewController {
  constructor(private readonly reads: SessionReads) {}

  @Get('sessions/:id/preview')
  @ApiOperation({
    operationId: 'SessionsController_preview',
    summary: 'The mix once made (a 30-second preview until unlocked); a processing status before',
  })
  async preview(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MixPreview> {
    const session = await this.reads.session(user, id);
    return {
      session: sessionView(session),
      status: session.status,
      tracks: resultTracks(session, await this.reads.decisions(session)),
      mixingStyle: session.mixingStyle,
      sampleRate: session.sampleRate,
    };
  }
}
