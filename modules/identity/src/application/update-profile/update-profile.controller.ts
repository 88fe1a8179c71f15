import { Body, Controller, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ProfileAnswer } from '@kora/contracts';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { validateProfile } from '../../domain/validation';
import { AccountCommands } from '../accounts/account-commands';
import { AccountReads } from '../accounts/account-reads';
import { PersonalData } from '../accounts/personal-data';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

@ApiTags('user')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/user/profile')
export class UpdateProfileController {
  constructor(
    private readonly reads: AccountReads,
    private readonly accounts: AccountCommands,
    private readonly personal: PersonalData,
    private readonly contexts: CommandContexts,
  ) {}

  /**
   * Saves the whole profile. Names are required, the e-mail is read-only, the phone follows the spec's rule,
   * countries and profile types come from the spec's lists; each failure is a 400 with a code per field.
   */
  @Put()
  @ApiOperation({
    operationId: 'ProfileController_update',
    summary: 'Save the profile; 400 with a translation key per invalid field',
  })
  async update(@CurrentUser() user: AuthenticatedUser, @Body() body: unknown): Promise<ProfileAnswer> {
    const current = await this.reads.profile(user.userId);
    const email = await this.personal.open(user.userId, current.email);
    const result = validateProfile(body, email);
    if (!result.ok) throw new ValidationFailedError(result.fields);
    await this.accounts.execute(
      user.userId,
      { type: 'UpdateProfile', ...(await this.personal.sealProfile(user.userId, result.value)) },
      this.contexts.forUser(user.userId),
    );
    return { success: true, profile: await this.personal.view(await this.reads.profile(user.userId)) };
  }
}
