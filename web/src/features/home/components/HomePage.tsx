import { useTranslation } from 'react-i18next';
import { ServiceStatus } from '../../health/components/ServiceStatus';

const SERVICES = [
  { id: 'AI_MASTERING', price: 4.99, available: true },
  { id: 'STEM_SEPARATION', price: 6.99, available: true },
  { id: 'AUDIO_ENHANCEMENT', price: 5.99, available: true },
  { id: 'AI_MIXING', price: 7.99, available: false },
] as const;

export function HomePage() {
  const { t, i18n } = useTranslation();
  const money = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'USD' });
  return (
    <section className="home">
      <h1>{t('home.title')}</h1>
      <p className="home__intro">{t('home.intro')}</p>
      <ul className="services">
        {SERVICES.map((service) => (
          <li key={service.id} className={`service${service.available ? '' : ' service--soon'}`}>
            <h2>{t(`home.services.${service.id}.name`)}</h2>
            <p>{t(`home.services.${service.id}.description`)}</p>
            <p className="service__price">
              {service.available
                ? t('home.pricePerTrack', { price: money.format(service.price) })
                : t('home.comingSoon')}
            </p>
          </li>
        ))}
      </ul>
      <ServiceStatus />
    </section>
  );
}
