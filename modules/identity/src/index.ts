export { IdentityModule } from './identity.module';
export { AccountPurger, type IdentityOptions } from './application/purge/account-purger';
export { IdentityProvider, type PasswordResetHandler, type ProviderProfile } from './ports/identity-provider';
export { SessionRevocations } from './ports/session-revocations';
export { ActiveAccountGuard } from './application/accounts/active-account.guard';
export { AfterResponse } from './application/accounts/after-response';
export type { Language } from './contracts/events';
export { SignUpService, type SignUpResult } from './application/sign-up/sign-up.service';
