import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  required?: boolean;
  hint?: ReactNode;
  children: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

/** A labelled control with its error (a translation key) tied to it for assistive technologies. */
export function Field({ id, label, error, required, hint, children }: FieldProps) {
  const { t } = useTranslation();
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      <div className="field__control">
        {children({ id, ...(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}) })}
        {hint}
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {t(error)}
        </p>
      )}
    </div>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`badge ${verified ? 'badge--ok' : 'badge--muted'}`}>
      {t(verified ? 'account.profile.verified' : 'account.profile.unverified')}
    </span>
  );
}
