import { type ComponentType, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import { Avatar } from '../../../components/Avatar';
import { useSession } from '../../../lib/session/SessionProvider';
import {
  isSettingsSection,
  SETTINGS_SECTIONS,
  type SettingsSectionId,
  type SettingsSectionProps,
} from '../../../lib/settings-sections';
import { initialSections, sectionsReducer } from '../model/sections';

/** The strip's scroll position that centres `item` in it (clamped by the browser to what can scroll). */
export function stripOffset(strip: HTMLElement, item: HTMLElement): number {
  const box = strip.getBoundingClientRect();
  const itemBox = item.getBoundingClientRect();
  return Math.max(0, strip.scrollLeft + itemBox.left - box.left - (box.width - itemBox.width) / 2);
}

export type SectionComponents = Record<SettingsSectionId, ComponentType<SettingsSectionProps>>;

/**
 * Account settings: a sidebar and five sections, all mounted, one visible (the `section` query parameter). A
 * section reloads when flagged stale or older than 5 minutes at selection; a visible tab again flags payments and
 * usage. The page opens at the top, or at the `plansSection` anchor.
 */
export function AccountSettingsPage({ sections }: { sections: SectionComponents }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const { hash } = useLocation();
  const requested = params.get('section');
  const active: SettingsSectionId = isSettingsSection(requested) ? requested : 'general';
  const [state, dispatch] = useReducer(sectionsReducer, active, (section) => initialSections(section, Date.now()));

  useEffect(() => {
    dispatch({ type: 'select', section: active, now: Date.now() });
  }, [active]);

  // On a narrow screen the sections are a strip that scrolls sideways: bring the active one into view (centred
  // when it can be), moving only the strip, never the page.
  const strip = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = strip.current;
    const button = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (list && button) list.scrollLeft = stripOffset(list, button);
  }, [active]);

  // Only when the page opens: at the top, or at the plans anchor.
  const [openingHash] = useState(hash);
  useEffect(() => {
    if (openingHash === '#plansSection') document.getElementById('plansSection')?.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [openingHash]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') dispatch({ type: 'visible', now: Date.now() });
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  const markStale = useCallback(
    (ids: SettingsSectionId[]) => dispatch({ type: 'markStale', sections: ids, now: Date.now() }),
    [],
  );
  const name = user?.name ?? user?.email ?? '';

  return (
    <div className="settings">
      <h1 className="settings__title">{t('account.title')}</h1>
      <div className="settings__layout">
        <aside className="settings__sidebar">
          <div className="settings__me">
            <Avatar picture={user?.picture ?? null} name={name} size={48} />
            <div>
              <p className="settings__name">{user?.name ?? t('account.me')}</p>
              <p className="muted">{t('account.personalAccount')}</p>
            </div>
          </div>
          <nav aria-label={t('account.sectionsLabel')}>
            <ul className="settings__nav" ref={strip}>
              {SETTINGS_SECTIONS.map((id) => (
                <li key={id}>
                  <button
                    type="button"
                    aria-current={id === active ? 'page' : undefined}
                    onClick={() => {
                      const next = new URLSearchParams(params);
                      next.set('section', id);
                      if (id !== 'plans') next.delete('service');
                      setParams(next);
                    }}
                  >
                    {t(`account.sections.${id}`)}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <div className="settings__content">
          {SETTINGS_SECTIONS.map((id) => {
            const Section = sections[id];
            return (
              <div key={id} hidden={id !== active} data-section={id}>
                <Section active={id === active} reloadToken={state.sections[id].reloadToken} markStale={markStale} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
