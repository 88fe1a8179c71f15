import { useTranslation } from 'react-i18next';

/** "Loading..." while something the page needs is on its way; `messageKey` for a more precise text. */
export function LoadingScreen({ messageKey = 'app.loading' }: { messageKey?: string }) {
  const { t } = useTranslation();
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p>{t(messageKey)}</p>
    </div>
  );
}
