import type { MixRequestAnswer } from '@kora/contracts';
import { Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IDS, type IdGenerator } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { MixCommands } from '../mix-commands';
import { resultTracks } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';

/** Requests the mix; `MixJobs` (beside this file) runs it on a worker. */
@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class StartMixController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  @Post('sessions/:id/master')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'SessionsController_master',
    summary: 'Make the mix (2 to 5 tracks) if it is not made yet; answers its status and, once made, its rows',
  })
  async master(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MixRequestAnswer> {
    await this.reads.session(user, id);
    await this.mixes.execute(id, { type: 'RequestMix', jobId: this.ids.newId() }, this.contexts.forUser(user.userId));
    const session = await this.reads.session(user, id);
    return {
      status: session.status,
      tracks: resultTracks(session, await this.reads.decisions(session)),
      mixingStyle: session.mixingStyle,
      sampleRate: session.sampleRate,
    };
  }
}
