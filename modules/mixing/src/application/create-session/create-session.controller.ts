import type { CreateMixSessionRequest, MixSessionAnswer, Unchecked } from '@kora/contracts';
import { Body, Controller, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IDS, type IdGenerator, ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { MixCommands } from '../mix-commands';
import { sessionView } from '../sessions/mix-views';
import { SessionReads } from '../sessions/session-reads';
import { MIXING_FIELD_CODES, sessionSettings } from '../sessions/settings';

const MAX_NAME = 120;

@ApiTags('mixing')
@ApiBearerAuth()
@Controller('api/mixing')
export class CreateSessionController {
  constructor(
    private readonly mixes: MixCommands,
    private readonly reads: SessionReads,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  @Post('sessions/create')
  @ApiOperation({
    operationId: 'SessionsController_create',
    summary: 'Create a mixing session (name required; style POP and 44100 Hz by default)',
  })
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Unchecked<CreateMixSessionRequest>,
  ): Promise<MixSessionAnswer> {
    const name = typeof body?.name === 'string' ? body.name.trim() : '';
    if (!name) throw new ValidationFailedError({ name: MIXING_FIELD_CODES.nameRequired });
    const settings = sessionSettings(body ?? {});
    const sessionId = this.ids.newId();
    await this.mixes.execute(
      sessionId,
      { type: 'CreateSession', sessionId, ownerId: user.userId, name: name.slice(0, MAX_NAME), ...settings },
      this.contexts.forUser(user.userId),
    );
    return { session: sessionView(await this.reads.session(user, sessionId)) };
  }
}
