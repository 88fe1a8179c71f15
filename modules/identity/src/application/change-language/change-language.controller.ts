import { Body, Controller, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import type { LanguageAnswer, LanguageChange, Unchecked } from '@kora/contracts';
import { isLanguage, PREFERENCES_FIELD_CODES } from '../../domain/validation';
import { AccountCommands } from '../accounts/account-commands';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

@ApiTags('user')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/user/preferences')
export class ChangeLanguageController {
  constructor(
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
  ) {}

  @Put('language')
  @ApiOperation({ operationId: 'PreferencesController_language', summary: 'Save the interface language (en or fr)' })
  async language(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Unchecked<LanguageChange>,
  ): Promise<LanguageAnswer> {
    if (!isLanguage(body?.language))
      throw new ValidationFailedError({ language: PREFERENCES_FIELD_CODES.invalidLanguage });
    await this.accounts.execute(
      user.userId,
      { type: 'ChangeLanguage', language: body.language },
      this.contexts.forUser(user.userId),
    );
    return { success: true, language: body.language };
  }
}
