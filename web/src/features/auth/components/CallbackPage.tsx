import type { PreferencesAnswer } from '@kora/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { useAppDispatch } from '../../../lib/hooks';
import { applyAccountLanguage } from '../../../lib/i18n';
import { AccountDeletedError, type LoginResult, type SessionManager } from '../../../lib/session/session';
import { useSessionManager } from '../../../lib/session/SessionProvider';
import { sessionResolved, userFromTokens } from '../../../lib/session/slice';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { toastShown } from '../../../lib/toast';

// The code can be exchanged once: a second effect run (React's StrictMode) shares the first one's answer.
const pending = new Map<string, Promise<LoginResult>>();
function completeOnce(manager: SessionManager): Promise<LoginResult> {
  const key = window.location.href;
  let promise = pending.get(key);
  if (!promise) {
    promise = manager.completeLogin();
    pending.set(key, promise);
  }
  return promise;
}

/** The word that the account is restored stays long enough to be read in full (it says what came back). */
export const REACTIVATED_TOAST_MS = 10_000;

/** /callback: completes the sign-in, registers the account, then returns to the saved page (default /). */
export function CallbackPage() {
  const { t } = useTranslation();
  const manager = useSessionManager();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);

  useEffect(() => {
    let active = true;
    completeOnce(manager).then(
      async (result) => {
        if (!active || result.kind === 'silent') return;
        await manager
          .getJson<PreferencesAnswer>('/api/user/preferences')
          .then((answer) => applyAccountLanguage(answer.preferences.language))
          .catch((error: unknown) => console.warn('The saved language could not be read', error));
        if (!active) return;
        dispatch(sessionResolved(userFromTokens(result.user)));
        // Signed in again: the sign-in page has no deactivation left to speak of.
        localStorage.removeItem(STORAGE_KEYS.deactivated);
        if (result.reactivated) {
          dispatch(toastShown({ kind: 'success', messageKey: 'auth.reactivated', durationMs: REACTIVATED_TOAST_MS }));
        }
        if (result.signupFailed) dispatch(toastShown({ kind: 'error', messageKey: 'auth.errors.signupFailed' }));
        navigate(result.returnTo, { replace: true });
      },
      (error: unknown) => {
        if (!active) return;
        if (error instanceof AccountDeletedError) {
          dispatch(sessionResolved(null));
          setDeleted(true);
          return;
        }
        console.error('The sign-in could not be completed', error);
        navigate('/login', { replace: true });
      },
    );
    return () => {
      active = false;
    };
  }, [manager, dispatch, navigate]);

  if (deleted) {
    return (
      <main id="main" className="centered-page">
        <div className="panel" role="alert">
          <h1>{t('auth.deleted.title')}</h1>
          <p>{t('auth.deleted.message')}</p>
          <button type="button" className="button" onClick={() => void manager.logout('/login')}>
            {t('auth.deleted.action')}
          </button>
        </div>
      </main>
    );
  }
  return (
    <main id="main" className="centered-page">
      <LoadingScreen messageKey="auth.processing" />
    </main>
  );
}
