import { type ComponentType, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { initialService, type ServiceId } from '../services';
import { ServiceList } from './ServiceList';

/** The recent tracks list, given by the app (another feature's component). */
export type RecentTracksSlot = ComponentType<{
  onOpen(track: { id: string }): void;
  activeTrackId?: string;
  refreshSignal?: number;
}>;

/** The work area (the upload and processing flows arrive with the audio services). */
export function DashboardPage({ RecentTracks }: { RecentTracks: RecentTracksSlot }) {
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
      {/* Opening a track shows it in the studio's result view, which the studio work wires here. */}
      <RecentTracks onOpen={() => undefined} />
    </section>
  );
}
