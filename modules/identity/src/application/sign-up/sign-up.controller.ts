import { Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { type SignUpResult, SignUpService } from './sign-up.service';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

@ApiTags('auth')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/auth')
export class SignUpController {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly signUps: SignUpService,
  ) {}

  /** Called by the client after every sign-in. */
  @Post('signup')
  @HttpCode(200)
  @ApiOperation({ summary: 'Register the signed-in user (idempotent); restores a deactivated account' })
  @ApiOkResponse({ description: '{ ok, registered, reactivated }' })
  async signUp(
    @CurrentUser() user: AuthenticatedUser,
    @Headers('authorization') authorization: string,
    @Headers('accept-language') acceptLanguage?: string,
  ): Promise<SignUpResult> {
    const person = await this.provider.profile(user.userId, authorization.replace(/^Bearer\s+/i, ''));
    return this.signUps.register(user.userId, person, acceptLanguage);
  }
}
