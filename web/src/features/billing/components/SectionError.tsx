import { useTranslation } from 'react-i18next';

export function SectionError({ messageKey, onRetry }: { messageKey: string; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div className="section-error" role="alert">
      <p>{t(messageKey)}</p>
      <button type="button" className="button button--ghost" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
