import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';

/** Status code (default 500) and text of a routing or rendering error, with a way home. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  let status = 500;
  let message = t('errors.route.defaultMessage');
  if (isRouteErrorResponse(error)) {
    status = error.status;
    message = error.status === 404 ? t('errors.route.notFound') : error.statusText || message;
  } else if (error instanceof Error && error.message) {
    message = error.message;
  }
  return (
    <section className="error-page" role="alert">
      <h1>{status}</h1>
      <p>{message}</p>
      <p>{t('errors.route.hint')}</p>
      <Link to="/" className="button">
        {t('errors.backHome')}
      </Link>
    </section>
  );
}
