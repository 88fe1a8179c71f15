import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorBody } from '../../../lib/api';
import { errorKey, fieldCode } from '../../../lib/error-codes';
import { useSendResultEmailMutation } from '../api/tracks';

/** How long 'Sent' stays on the button (spec §4). */
export const SENT_RESET_MS = 3000;

/** The e-mail delivery panel (spec §2): the result's links, sent to an address. */
export function EmailPanel({ trackId, service, unlocked }: { trackId: string; service: string; unlocked: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [send, { isLoading }] = useSendResultEmailMutation();

  useEffect(() => {
    if (!sent) return undefined;
    const timer = setTimeout(() => setSent(false), SENT_RESET_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || isLoading) return;
    setError(null);
    try {
      await send({ trackId, recipientEmail: email.trim(), service }).unwrap();
      setSent(true);
    } catch (failure) {
      setError(errorKey('resultEmail', fieldCode(errorBody(failure), 'recipientEmail'), 'studio:email.failed'));
    }
  };

  return (
    <section className="email-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('studio:email.title')}</h3>
      <p className="muted">{t(unlocked ? 'studio:email.whatMaster' : 'studio:email.whatPreview')}</p>
      <form className="email-panel__form" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={`${id}-email`} className="visually-hidden">
          {t('studio:email.label')}
        </label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder={t('studio:email.placeholder')}
          value={email}
          aria-invalid={error === 'studio:email.invalid'}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="button" disabled={!email.trim() || isLoading}>
          {isLoading ? t('studio:email.sending') : sent ? t('studio:email.sent') : t('studio:email.send')}
        </button>
      </form>
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {t(error)}
        </p>
      )}
      <p className="visually-hidden" aria-live="polite">
        {sent ? t('studio:email.sentLong') : ''}
      </p>
    </section>
  );
}
