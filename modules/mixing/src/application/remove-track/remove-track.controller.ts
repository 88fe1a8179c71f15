import type { SuccessAnswer } from '@kora/contracts';
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { MixCommands } from '../mix-commands';
import { SessionReads } from '../sessions/session-reads';

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class RemoveTrackController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly contexts: CommandContexts,
  ) {}

  @Post('tracks/:id/delete')
  @HttpCode(200)
  @ApiOperation({ operationId: 'SessionsController_deleteTrack', summary: undefined })
  async deleteTrack(@CurrentUser() user: AuthenticatedUser, @Param('id') trackId: string): Promise<SuccessAnswer> {
    const session = await this.reads.sessionOfTrack(user, trackId);
    await this.mixes.execute(session._id, { type: 'RemoveTrack', trackId }, this.contexts.forUser(user.userId));
    return { success: true };
  }
}
