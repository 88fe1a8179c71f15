import { Controller, Get, Headers } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ProfileAnswer } from '@kora/contracts';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { AccountReads } from '../accounts/account-reads';
import { PersonalData } from '../accounts/personal-data';
import { EmailVerification } from './email-verification';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

@ApiTags('user')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/user/profile')
export class GetProfileController {
  constructor(
    private readonly reads: AccountReads,
    private readonly personal: PersonalData,
    private readonly verification: EmailVerification,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'ProfileController_get',
    summary: 'The signed-in user’s profile (an address still unverified is checked with the identity provider)',
  })
  async get(
    @CurrentUser() user: AuthenticatedUser,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<ProfileAnswer> {
    let doc = await this.reads.profile(user.userId);
    if (
      !doc.isEmailVerified &&
      (await this.verification.refresh(user.userId, (authorization ?? '').replace(/^Bearer\s+/i, '')))
    ) {
      doc = await this.reads.profile(user.userId);
    }
    return { success: true, profile: await this.personal.view(doc) };
  }
}
