import { SETTINGS_SECTIONS, type SettingsSectionId } from '../../../lib/settings-sections';

/** A section older than this at selection is reloaded (spec §9). */
export const SECTION_MAX_AGE_MS = 5 * 60 * 1000;
/** Sections flagged when the browser tab becomes visible again (spec §2). */
export const REFRESHED_ON_VISIBLE: readonly SettingsSectionId[] = ['payments', 'usage'];

export interface SectionFreshness {
  loadedAt: number;
  stale: boolean;
  /** Bumped at each reload the page decides. */
  reloadToken: number;
}

export interface SectionsState {
  active: SettingsSectionId;
  sections: Record<SettingsSectionId, SectionFreshness>;
}

export type SectionsAction =
  | { type: 'select'; section: SettingsSectionId; now: number }
  | { type: 'markStale'; sections: readonly SettingsSectionId[]; now: number }
  | { type: 'visible'; now: number };

/** All sections mount (and load) with the page. */
export function initialSections(active: SettingsSectionId, now: number): SectionsState {
  const sections = Object.fromEntries(
    SETTINGS_SECTIONS.map((id) => [id, { loadedAt: now, stale: false, reloadToken: 0 }]),
  ) as Record<SettingsSectionId, SectionFreshness>;
  return { active, sections };
}

function reload(state: SectionsState, id: SettingsSectionId, now: number): SectionsState {
  const current = state.sections[id];
  return {
    ...state,
    sections: { ...state.sections, [id]: { loadedAt: now, stale: false, reloadToken: current.reloadToken + 1 } },
  };
}

/**
 * Freshness rules: a section reloads when selected if it was flagged stale or is more than 5 minutes old; a flag on
 * the visible section reloads it at once; a visible tab again flags payments and usage.
 */
export function sectionsReducer(state: SectionsState, action: SectionsAction): SectionsState {
  switch (action.type) {
    case 'select': {
      const next = { ...state, active: action.section };
      const section = state.sections[action.section];
      const old = action.now - section.loadedAt > SECTION_MAX_AGE_MS;
      return section.stale || old ? reload(next, action.section, action.now) : next;
    }
    case 'markStale': {
      let next = state;
      for (const id of action.sections) {
        if (id === state.active) next = reload(next, id, action.now);
        else next = { ...next, sections: { ...next.sections, [id]: { ...next.sections[id], stale: true } } };
      }
      return next;
    }
    case 'visible':
      return sectionsReducer(state, { type: 'markStale', sections: REFRESHED_ON_VISIBLE, now: action.now });
    default: {
      const never: never = action;
      return never;
    }
  }
}
