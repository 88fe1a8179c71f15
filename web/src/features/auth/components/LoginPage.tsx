import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { hasAuthParams } from '../../../lib/session/session';
import { useSession } from '../../../lib/session/SessionProvider';

/** /login: starts the sign-in redirect, unless the address carries a code or a state. */
export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const { search } = useLocation();
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (hasAuthParams(search)) return;
    login().catch((error: unknown) => {
      console.error('The sign-in could not start', error);
      setFailed(true);
    });
  }, [login, search, attempt]);

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
