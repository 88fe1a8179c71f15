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

/** The work area's ways to get a track other than an upload (the demo, the media library), given by the app. */
export type TrackSourcesSlot = ComponentType<{
  service: string;
  onOpen(track: { id: string }): void;
  onStarted(track: { id: string }): void;
}>;

/** The work area (the upload and processing flows arrive with the audio services). */
export function DashboardPage({
  RecentTracks,
  TrackSources,
}: {
  RecentTracks: RecentTracksSlot;
  TrackSources?: TrackSourcesSlot;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [service, setService] = useState<ServiceId>(() =>
    initialService(params.get('service'), localStorage.getItem(STORAGE_KEYS.selectedService)),
  );
  useEffect(() => {
    localStorage.setItem(STORAGE_KEYS.selectedService, service);
  }, [service]);
  // The track the work area shows (the studio's result view opens it), and a signal that refreshes the list.
  const [activeTrackId, setActiveTrackId] = useState<string | undefined>();
  const [refreshSignal, setRefreshSignal] = useState(0);
  const open = (track: { id: string }) => setActiveTrackId(track.id);
  return (
    <section className="dashboard">
      <h1>{t('dashboard.title')}</h1>
      <h2>{t('dashboard.pickService')}</h2>
      <ServiceList selected={service} onSelect={setService} />
      <div className="card work-area" aria-live="polite">
        <h2>{t(`services.${service}.name`)}</h2>
        <p className="muted">{t('dashboard.workAreaSoon')}</p>
        {TrackSources && (
          <TrackSources
            service={service}
            onOpen={open}
            onStarted={(track) => {
              open(track);
              setRefreshSignal((signal) => signal + 1);
            }}
          />
        )}
      </div>
      <RecentTracks onOpen={open} activeTrackId={activeTrackId} refreshSignal={refreshSignal} />
    </section>
  );
}
