import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="error-page">
      <h1>{t('errors.notFound.title')}</h1>
      <p>{t('errors.notFound.message')}</p>
      <Link to="/" className="button">
        {t('errors.backHome')}
      </Link>
    </section>
  );
}
