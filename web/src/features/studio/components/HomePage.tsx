import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSession } from '../../../lib/session/SessionProvider';
import { ServiceStatus } from './ServiceStatus';
import { ServiceList } from './ServiceList';

export function HomePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <section className="home">
      <h1>{user?.givenName ? t('home.greeting', { name: user.givenName }) : t('home.title')}</h1>
      <p className="home__intro">{t('home.intro')}</p>
      <ServiceList />
      <p>
        <Link to="/dashboard" className="button">
          {t('home.start')}
        </Link>
      </p>
      <ServiceStatus />
    </section>
  );
}
