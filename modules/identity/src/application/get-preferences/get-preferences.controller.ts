import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import type { Preferences, PreferencesAnswer } from '@kora/contracts';
import { AccountReads } from '../accounts/account-reads';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

function view(doc: Preferences): Preferences {
  return { notificationSettings: doc.notificationSettings, language: doc.language, currency: doc.currency };
}

@ApiTags('user')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/user/preferences')
export class GetPreferencesController {
  constructor(private readonly reads: AccountReads) {}

  @Get()
  @ApiOperation({ operationId: 'PreferencesController_get', summary: 'Notification settings, language and currency' })
  async get(@CurrentUser() user: AuthenticatedUser): Promise<PreferencesAnswer> {
    return { success: true, preferences: view(await this.reads.preferences(user.userId)) };
  }
}
