import { useTranslation } from 'react-i18next';
import { clock, cooldownRemaining } from '../model/rules';

/** The sticky error banner, with its close button (spec §2). */
export function ErrorBanner({ error, onClose }: { error: string | null; onClose(): void }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <div className="payment-banner payment-banner--error" role="alert">
      <p>{t(error, { time: clock(cooldownRemaining(localStorage, Date.now())) })}</p>
      <button type="button" className="icon-button" aria-label={t('payment:close')} onClick={onClose}>
        ×
      </button>
    </div>
  );
}
