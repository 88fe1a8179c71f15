import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { initialService, type ServiceId } from '../services';
import { ServiceList } from './ServiceList';

/** The work area (the upload and processing flows arrive with the audio services). */
export function DashboardPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [service, setService] = useState<ServiceId>(() =>
    initialService(params.get('service'), localStorage.getItem(STORAGE_KEYS.selectedService)),
  );
  useEffect(() => {
    localStorage.setItem(STORAGE_KEYS.selectedService, service);
  }, [service]);
  return (
    <section className="dashboard">
      <h1>{t('dashboard.title')}</h1>
      <h2>{t('dashboard.pickService')}</h2>
      <ServiceList selected={service} onSelect={setService} />
      <div className="card work-area" aria-live="polite">
        <h2>{t(`services.${service}.name`)}</h2>
        <p className="muted">{t('dashboard.workAreaSoon')}</p>
      </div>
      <h2>{t('dashboard.recentWorks')}</h2>
      <p className="muted">{t('dashboard.noWorks')}</p>
    </section>
  );
}
