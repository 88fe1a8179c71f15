import { useTranslation } from 'react-i18next';
import { DownloadIcon } from '../../../components/icons';
import { useInstallPrompt } from '../hooks/useInstallPrompt';
import { LanguageMenu } from './LanguageMenu';

export function Footer() {
  const { t } = useTranslation();
  const { canInstall, install } = useInstallPrompt();
  return (
    <footer className="footer">
      <LanguageMenu />
      {canInstall && (
        <button type="button" className="button button--ghost" onClick={() => void install()}>
          <DownloadIcon />
          <span>{t('footer.install')}</span>
        </button>
      )}
      <p className="footer__copyright">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
