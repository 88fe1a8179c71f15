import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import type { Language, Preferences } from '../../contracts/events';
import { isLanguage, PREFERENCES_FIELD_CODES, validatePreferences } from '../../domain/validation';
import { AccountCommands } from '../accounts/account-commands';
import { AccountReads } from '../accounts/account-reads';

function view(doc: Preferences): Preferences {
  return { notificationSettings: doc.notificationSettings, language: doc.language, currency: doc.currency };
}

@ApiTags('user')
@ApiBearerAuth()
@Controller('api/user/preferences')
export class PreferencesController {
  constructor(
    private readonly reads: AccountReads,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Notification settings, language and currency' })
  async get(@CurrentUser() user: AuthenticatedUser): Promise<{ success: true; preferences: Preferences }> {
    return { success: true, preferences: view(await this.reads.preferences(user.userId)) };
  }

  @Put()
  @ApiOperation({ summary: 'Save the preferences (language en or fr, currency EUR, USD or XOF)' })
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: unknown,
  ): Promise<{ success: true; preferences: Preferences }> {
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

  @Put('language')
  @ApiOperation({ summary: 'Save the interface language (en or fr)' })
  async language(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { language?: unknown },
  ): Promise<{ success: true; language: Language }> {
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
