import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@kora/kernel/nest';
import { CONFIG, type Config } from '../config/config';
import { OIDC_SCOPES } from './provider-configuration';

export interface AuthConfig {
  /** The OpenID issuer the client signs in with. */
  authority: string;
  clientId: string;
  /** The API's audience (resource indicator). */
  audience: string;
  scope: string;
  /** `built-in` (the provider at /oidc) or `external`. */
  provider: 'built-in' | 'external';
}

@ApiTags('auth')
@Controller('api/auth')
export class AuthConfigController {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  /** Public on purpose: the client needs it before anyone is signed in. */
  @Public()
  @Get('config')
  @ApiOperation({ summary: 'Which OpenID issuer the client should sign in with' })
  get(): AuthConfig {
    return {
      authority: this.config.oidc.issuer,
      clientId: this.config.oidc.clientId,
      audience: this.config.oidc.audience,
      scope: OIDC_SCOPES,
      provider: this.config.embedded.identity ? 'built-in' : 'external',
    };
  }
}
