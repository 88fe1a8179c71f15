import type { MixStatusAnswer } from '@kora/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { SessionReads } from '../sessions/session-reads';

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class GetMixStatusController {
  constructor(private readonly reads: SessionReads) {}

  @Get('sessions/:id/status')
  @ApiOperation({ operationId: 'SessionsController_status', summary: undefined })
  async status(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MixStatusAnswer> {
    const session = await this.reads.session(user, id);
    return { status: session.status, error: session.error?.message ?? null };
  }
}
