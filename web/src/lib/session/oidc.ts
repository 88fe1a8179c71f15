import type { AuthConfig, UserManagerLike } from './session';

/** The client's settings for oidc-client-ts (spec §5, §6 and §9: code + PKCE, refresh tokens, 10 s and 60 s limits). */
export function userManagerSettings(config: AuthConfig, origin: string) {
  return {
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: `${origin}/callback`,
    silent_redirect_uri: `${origin}/callback`,
    post_logout_redirect_uri: `${origin}/login`,
    response_type: 'code',
    scope: config.scope,
    // Renewal goes through SessionManager, one at a time; the expiring event (60 s early) triggers it.
    automaticSilentRenew: false,
    accessTokenExpiringNotificationTimeInSeconds: 60,
    silentRequestTimeoutInSeconds: 10,
    requestTimeoutInSeconds: 10,
    // The built-in provider's access tokens are for the API audience, which its userinfo endpoint refuses;
    // names and e-mail come from the profile API instead.
    loadUserInfo: false,
    monitorSession: false,
  };
}

/** Loads oidc-client-ts on demand (its own chunk) and builds the manager, with the session cached in local storage. */
export async function createOidcUserManager(config: AuthConfig): Promise<UserManagerLike> {
  const { UserManager, WebStorageStateStore } = await import('oidc-client-ts');
  return new UserManager({
    ...userManagerSettings(config, window.location.origin),
    userStore: new WebStorageStateStore({ store: window.localStorage }),
  }) as unknown as UserManagerLike;
}

export async function fetchAuthConfig(): Promise<AuthConfig> {
  const response = await fetch('/api/auth/config', { credentials: 'include' });
  if (!response.ok) throw new Error(`/api/auth/config answered ${response.status}`);
  return (await response.json()) as AuthConfig;
}
