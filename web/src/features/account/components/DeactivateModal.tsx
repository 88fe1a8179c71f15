import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { errorBody } from '../../../lib/api';
import { errorKey, fieldCode } from '../../../lib/error-codes';
import { useSession, useSessionManager } from '../../../lib/session/SessionProvider';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { useDeactivateAccountMutation } from '../api/account';
import { DELETE_CONFIRMATION, isDeleteConfirmed } from '../model/validation';

const WARNINGS = ['profile', 'packs', 'history', 'restore'] as const;

/** The days a deactivated account can still be restored (spec §4), when the server does not say the day. */
const RESTORE_DAYS = 30;

/**
 * Deactivation: the warning list, then typing DELETE enables the confirmation. Success logs out to / (spec §4), where
 * the sign-in page says the account is deactivated, until when, and how to restore it.
 */
export function DeactivateModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { logout } = useSession();
  const session = useSessionManager();
  const [deactivate, { isLoading }] = useDeactivateAccountMutation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const confirmed = isDeleteConfirmed(text);

  const confirm = async () => {
    if (!confirmed) {
      setError('account.security.delete.confirmError');
      return;
    }
    try {
      session.endingHere(true); // the server ends the sessions: its word on the socket is this deactivation's
      const answer = await deactivate({ confirmationText: DELETE_CONFIRMATION }).unwrap();
      const purgeAfter = answer.purgeAfter ?? new Date(Date.now() + RESTORE_DAYS * 24 * 3600 * 1000).toISOString();
      localStorage.setItem(STORAGE_KEYS.deactivated, purgeAfter);
      await logout('/');
    } catch (failure) {
      session.endingHere(false);
      const code = fieldCode(errorBody(failure), 'confirmationText');
      setError(errorKey('deactivate', code, 'account.security.delete.error'));
    }
  };

  return (
    <Modal title={t('account.security.delete.modalTitle')} onClose={onClose} initialFocus={input}>
      <p>{t('account.security.delete.intro')}</p>
      <ul className="warning-list">
        {WARNINGS.map((key) => (
          <li key={key}>{t(`account.security.delete.warnings.${key}`)}</li>
        ))}
      </ul>
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label htmlFor={inputId}>{t('account.security.delete.typeLabel', { word: DELETE_CONFIRMATION })}</label>
        <input
          ref={input}
          id={inputId}
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : confirmed ? undefined : `${inputId}-hint`}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
          }}
        />
        {error ? (
          <p id={`${inputId}-error`} className="field__error" role="alert">
            {t(error)}
          </p>
        ) : (
          !confirmed && (
            <p id={`${inputId}-hint`} className="muted field__hint">
              {t('account.security.delete.confirmHint', { word: DELETE_CONFIRMATION })}
            </p>
          )
        )}
      </div>
      <div className="modal__actions">
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={!confirmed || isLoading}
          aria-describedby={confirmed ? undefined : `${inputId}-hint`}
          onClick={() => void confirm()}
        >
          {t(isLoading ? 'account.security.delete.deactivating' : 'account.security.delete.confirm')}
        </button>
      </div>
    </Modal>
  );
}
