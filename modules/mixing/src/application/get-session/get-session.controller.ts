import type { MixSessionAnswer } from '@kora/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { sessionView } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class GetSessionController {
  constructor(private readonly reads: SessionReads) {}

  @Get('sessions/:id')
  @ApiOperation({ operationId: 'SessionsController_get', summary: undefined })
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MixSessionAnswer> {
    return { session: sessionView(await this.reads.session(user, id)) };
  }
}
