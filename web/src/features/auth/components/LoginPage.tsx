import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { formatDate } from '../../../lib/format';
import { hasAuthParams } from '../../../lib/session/session';
import { useSession } from '../../../lib/session/SessionProvider';
import { deactivationNotice, STORAGE_KEYS } from '../../../lib/session/storage';

/**
 * /login: starts the sign-in redirect, unless the address carries a code or a state. Right after this device
 * deactivated its account, it says so first (until when the account can be restored, and how) and waits for the
 * person to sign in again.
 */
export function LoginPage() {
  const { t, i18n } = useTranslation();
  const { login } = useSession();
  const { search } = useLocation();
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [deactivated, setDeactivated] = useState(() => deactivationNotice(localStorage, Date.now()));

  useEffect(() => {
    if (hasAuthParams(search) || deactivated) return;
    login().catch((error: unknown) => {
      console.error('The sign-in could not start', error);
      setFailed(true);
    });
  }, [login, search, attempt, deactivated]);

  if (deactivated) {
    return (
      <main id="main" className="centered-page">
        <div className="panel" role="status">
          <h1>{t('auth.deactivated.title')}</h1>
          <p>{t('auth.deactivated.message', { date: formatDate(deactivated, i18n.language) })}</p>
          <p>{t('auth.deactivated.restore')}</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              localStorage.removeItem(STORAGE_KEYS.deactivated);
              setDeactivated(null);
            }}
          >
            {t('auth.deactivated.action')}
          </button>
        </div>
      </main>
    );
  }

  if (failed) {
    return (
      <main id="main" className="centered-page">
        <div className="panel" role="alert">
          <h1>{t('auth.loginFailed.title')}</h1>
          <p>{t('auth.loginFailed.message')}</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              setFailed(false);
              setAttempt((value) => value + 1);
            }}
          >
            {t('common.retry')}
          </button>
        </div>
      </main>
    );
  }
  return (
    <main id="main" className="centered-page">
      <LoadingScreen messageKey="auth.redirecting" />
    </main>
  );
}
