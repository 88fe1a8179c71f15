import { type DynamicModule, Module } from '@nestjs/common';
import { AccountCommands } from './application/accounts/account-commands';
import { AccountReads } from './application/accounts/account-reads';
import { PersonalData } from './application/accounts/personal-data';
import { AfterResponse } from './application/accounts/after-response';
import { ChangeLanguageController } from './application/change-language/change-language.controller';
import { DeactivateController, DeleteAccountController } from './application/deactivate/deactivate.controller';
import { DeactivateService } from './application/deactivate/deactivate.service';
import { GetPreferencesController } from './application/get-preferences/get-preferences.controller';
import { EmailVerification } from './application/get-profile/email-verification';
import { GetProfileController } from './application/get-profile/get-profile.controller';
import { LogoutController } from './application/logout/logout.controller';
import { AccountPurger, IDENTITY_OPTIONS, type IdentityOptions } from './application/purge/account-purger';
import { ReactivateAccountService } from './application/reactivate-account/reactivate-account.service';
import { ResetPasswordController } from './application/reset-password/reset-password.controller';
import { SessionsAfterPasswordReset } from './application/reset-password/sessions-after-reset';
import { SignUpController } from './application/sign-up/sign-up.controller';
import { SignUpService } from './application/sign-up/sign-up.service';
import { UpdatePreferencesController } from './application/update-preferences/update-preferences.controller';
import { UpdateProfileController } from './application/update-profile/update-profile.controller';

/**
 * Accounts: sign-up after the provider's sign-in, profile, preferences, language, password reset (which ends every
 * session, access tokens included), deactivation and the purge 30 days later. Needs, from the application: the event
 * and read stores, the query bus answered by the projections package, a PersonalDataVault, a Mailer, an
 * IdentityProvider and SessionRevocations (the API's token check).
 */
@Module({})
export class IdentityModule {
  static forRoot(options: IdentityOptions): DynamicModule {
    return {
      module: IdentityModule,
      // In the order the routes were first published (the OpenAPI document keeps it).
      controllers: [
        SignUpController,
        LogoutController,
        ResetPasswordController,
        DeleteAccountController,
        GetProfileController,
        UpdateProfileController,
        GetPreferencesController,
        UpdatePreferencesController,
        ChangeLanguageController,
        DeactivateController,
      ],
      providers: [
        AccountCommands,
        AccountReads,
        PersonalData,
        AccountPurger,
        AfterResponse,
        SignUpService,
        ReactivateAccountService,
        DeactivateService,
        SessionsAfterPasswordReset,
        EmailVerification,
        { provide: IDENTITY_OPTIONS, useValue: options },
      ],
      exports: [AccountPurger, SignUpService, AfterResponse],
    };
  }
}
