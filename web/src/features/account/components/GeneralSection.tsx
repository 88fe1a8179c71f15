import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingsSectionProps } from '../../../lib/settings-sections';
import { useReload } from '../../../lib/useReload';
import { useGetPreferencesQuery, useGetProfileQuery } from '../api/account';
import { PersonalInfoForm } from './PersonalInfoForm';
import { PreferencesForm } from './PreferencesForm';

const TABS = ['personal', 'preferences'] as const;
type Tab = (typeof TABS)[number];

/** General: personal information and preferences, as two tabs (arrow keys move between them). */
export function GeneralSection({ reloadToken, markStale }: SettingsSectionProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('personal');
  const prefix = useId();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const profile = useGetProfileQuery();
  const preferences = useGetPreferencesQuery();
  useReload(reloadToken, () => {
    void profile.refetch();
    void preferences.refetch();
  });

  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = (index + delta + TABS.length) % TABS.length;
    setTab(TABS[next]!);
    tabs.current[next]?.focus();
  };

  return (
    <section className="settings-section" aria-labelledby="general-title">
      <h2 id="general-title">{t('account.sections.general')}</h2>
      <div className="tabs" role="tablist" aria-label={t('account.sections.general')}>
        {TABS.map((id, index) => (
          <button
            key={id}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${prefix}-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`${prefix}-panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {t(`account.general.tabs.${id}`)}
          </button>
        ))}
      </div>
      {TABS.map((id) => (
        <div
          key={id}
          role="tabpanel"
          id={`${prefix}-panel-${id}`}
          aria-labelledby={`${prefix}-tab-${id}`}
          hidden={tab !== id}
          className="card"
        >
          {id === 'personal' ? <PersonalInfoForm markStale={markStale} /> : <PreferencesForm markStale={markStale} />}
        </div>
      ))}
    </section>
  );
}
