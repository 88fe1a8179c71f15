import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorStatus } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/hooks';
import { currentLanguage } from '../../../lib/i18n';
import { useSession } from '../../../lib/session/SessionProvider';
import type { SettingsSectionProps } from '../../../lib/settings-sections';
import { toastShown } from '../../../lib/toast';
import { useGetProfileQuery, useRequestPasswordResetMutation } from '../api/account';
import { DeactivateModal } from './DeactivateModal';

/** Security: change the password by e-mail, and deactivate the account. */
export function SecuritySection({ markStale }: SettingsSectionProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { user } = useSession();
  const profile = useGetProfileQuery();
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const [confirming, setConfirming] = useState(false);
  const email = user?.email ?? profile.data?.email ?? null;

  const changePassword = async () => {
    if (!email) {
      dispatch(toastShown({ kind: 'error', messageKey: 'account.security.password.emailNotFound' }));
      return;
    }
    try {
      await requestReset({ email, language: currentLanguage() }).unwrap();
      dispatch(toastShown({ kind: 'success', messageKey: 'account.security.password.sent', params: { email } }));
      markStale(['security']);
    } catch (error) {
      const tooMany = errorStatus(error) === 429;
      dispatch(
        toastShown({
          kind: 'error',
          messageKey: tooMany ? 'account.security.password.tooMany' : 'account.security.password.error',
        }),
      );
    }
  };

  return (
    <section className="settings-section" aria-labelledby="security-title">
      <h2 id="security-title">{t('account.sections.security')}</h2>
      <div className="card">
        <h3>{t('account.security.password.title')}</h3>
        <p className="muted">
          {email
            ? t('account.security.password.description', { email })
            : t('account.security.password.descriptionNoEmail')}
        </p>
        <button type="button" className="button" disabled={isLoading} onClick={() => void changePassword()}>
          {t(isLoading ? 'account.security.password.sending' : 'account.security.password.action')}
        </button>
      </div>
      <div className="card card--danger">
        <h3>{t('account.security.delete.title')}</h3>
        <p className="muted">{t('account.security.delete.description')}</p>
        <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
          {t('account.security.delete.open')}
        </button>
      </div>
      {confirming && <DeactivateModal onClose={() => setConfirming(false)} />}
    </section>
  );
}
