import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { ListMixSessions, type MixSessionDocument } from '../../contracts/queries';
import { type MixSessionView, sessionView } from '../sessions/mix-views';

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class ListSessionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('sessions')
  @ApiOperation({ operationId: 'SessionsController_list', summary: 'The user’s mixing sessions, newest first' })
  async list(@CurrentUser() user: AuthenticatedUser): Promise<{ sessions: MixSessionView[] }> {
    const docs = await this.queries.execute<ListMixSessions, MixSessionDocument[]>(new ListMixSessions(user.userId));
    return { sessions: docs.map(sessionView) };
  }
}
