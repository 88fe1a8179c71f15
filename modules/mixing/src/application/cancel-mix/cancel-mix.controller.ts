import type { SuccessAnswer } from '@kora/contracts';
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { MixCommands } from '../mix-commands';
import { SessionReads } from '../sessions/session-reads';

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class CancelMixController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly contexts: CommandContexts,
  ) {}

  @Post('sessions/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ operationId: 'SessionsController_cancel', summary: undefined })
  async cancel(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SuccessAnswer> {
    await this.reads.session(user, id);
    await this.mixes.execute(id, { type: 'CancelMix' }, this.contexts.forUser(user.userId));
    return { success: true };
  }
}
