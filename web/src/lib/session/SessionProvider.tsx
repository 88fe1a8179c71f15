import type { ProfileAnswer } from '@kora/contracts';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo } from 'react';
import { useAppDispatch, useAppSelector } from '../hooks';
import type { SessionManager } from './session';
import { sessionResolved, type SessionUser, userFromTokens, userUpdated } from './slice';

const SessionContext = createContext<SessionManager | null>(null);

/**
 * Establishes the session on load (except on /callback, which completes a sign-in itself), then reads the names
 * and e-mail from the profile API and caches the picture as an object URL, released when the provider goes away.
 */
export function SessionProvider({ manager, children }: { manager: SessionManager; children: ReactNode }) {
  const dispatch = useAppDispatch();
  const status = useAppSelector((state) => state.session.status);
  const sub = useAppSelector((state) => state.session.user?.sub);
  const picture = useAppSelector((state) => state.session.user?.picture ?? null);

  useEffect(() => {
    if (window.location.pathname === '/callback') return;
    let cancelled = false;
    manager.restore().then(
      (tokens) => {
        if (!cancelled) dispatch(sessionResolved(tokens ? userFromTokens(tokens) : null));
      },
      (error: unknown) => {
        console.error('The session could not be restored', error);
        if (!cancelled) dispatch(sessionResolved(null));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [manager, dispatch]);

  useEffect(() => {
    if (status !== 'authenticated' || !sub) return;
    loadProfile(manager).then(
      (fields) => dispatch(userUpdated(fields)),
      (error: unknown) => console.warn('The profile could not be read', error),
    );
  }, [manager, dispatch, status, sub]);

  useEffect(() => {
    if (!picture || picture.startsWith('blob:')) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetch(picture)
      .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        dispatch(userUpdated({ picture: objectUrl }));
      })
      // A picture on another origin may not be fetchable (CSP connect-src): the image element loads it instead.
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [picture, dispatch]);

  return <SessionContext.Provider value={manager}>{children}</SessionContext.Provider>;
}

async function loadProfile(manager: SessionManager): Promise<Partial<SessionUser>> {
  const { profile } = await manager.getJson<ProfileAnswer>('/api/user/profile');
  const fields: Partial<SessionUser> = {};
  // A field never given is '': the tokens' value stays.
  if (profile.email) fields.email = profile.email;
  if (profile.firstName) fields.givenName = profile.firstName;
  if (profile.lastName) fields.familyName = profile.lastName;
  return fields;
}

export function useSessionManager(): SessionManager {
  const manager = useContext(SessionContext);
  if (!manager) throw new Error('useSession must be used inside SessionProvider');
  return manager;
}

/**
 * The session context of the spec (§3): state, login, logout (this device), updateUserProfile, refreshUserProfile;
 * and logoutEverywhere (every device of the account).
 */
export function useSession() {
  const manager = useSessionManager();
  const dispatch = useAppDispatch();
  const { status, user } = useAppSelector((state) => state.session);
  const login = useCallback((returnTo?: string) => manager.redirectToLogin(returnTo), [manager]);
  const logout = useCallback((redirectTo?: '/login' | '/') => manager.logout(redirectTo), [manager]);
  const logoutEverywhere = useCallback(() => manager.logout('/login', { everywhere: true }), [manager]);
  const updateUserProfile = useCallback(
    (fields: Partial<Omit<SessionUser, 'sub'>>) => dispatch(userUpdated(fields)),
    [dispatch],
  );
  const refreshUserProfile = useCallback(
    async () => dispatch(userUpdated(await loadProfile(manager))),
    [manager, dispatch],
  );
  return useMemo(
    () => ({
      isAuthenticated: status === 'authenticated',
      loading: status === 'loading',
      user,
      login,
      logout,
      logoutEverywhere,
      updateUserProfile,
      refreshUserProfile,
    }),
    [status, user, login, logout, logoutEverywhere, updateUserProfile, refreshUserProfile],
  );
}
