import { Body, Controller, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import type { PreferencesAnswer } from '@kora/contracts';
import { validatePreferences } from '../../domain/validation';
import { AccountCommands } from '../accounts/account-commands';
import { AccountReads } from '../accounts/account-reads';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

@ApiTags('user')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/user/preferences')
export class UpdatePreferencesController {
  constructor(
    private readonly reads: AccountReads,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
  ) {}

  @Put()
  @ApiOperation({
    operationId: 'PreferencesController_update',
    summary: 'Save the preferences (language en or fr, currency EUR, USD or XOF)',
  })
  async update(@CurrentUser() user: AuthenticatedUser, @Body() body: unknown): Promise<PreferencesAnswer> {
    const current = await this.reads.preferences(user.userId);
    const result = validatePreferences(body, current);
    if (!result.ok) throw new ValidationFailedError(result.fields);
    await this.accounts.execute(
      user.userId,
      { type: 'UpdatePreferences', preferences: result.value },
      this.contexts.forUser(user.userId),
    );
    return { success: true, preferences: result.value };
  }
}
