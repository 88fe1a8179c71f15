import { describe, expect, it } from '@jest/globals';
import { initialSections, SECTION_MAX_AGE_MS, sectionsReducer } from './sections';

const T0 = 1_000_000;

describe('settings sections freshness', () => {
  it('does not reload a section selected again within 5 minutes', () => {
    let state = initialSections('general', T0);
    state = sectionsReducer(state, { type: 'select', section: 'plans', now: T0 + SECTION_MAX_AGE_MS });
    expect(state.active).toBe('plans');
    expect(state.sections.plans.reloadToken).toBe(0);
  });

  it('reloads a section more than 5 minutes old when it is selected', () => {
    let state = initialSections('general', T0);
    state = sectionsReducer(state, { type: 'select', section: 'usage', now: T0 + SECTION_MAX_AGE_MS + 1 });
    expect(state.sections.usage).toEqual({ loadedAt: T0 + SECTION_MAX_AGE_MS + 1, stale: false, reloadToken: 1 });
  });

  it('flags a hidden section stale and reloads it at its next selection', () => {
    let state = initialSections('general', T0);
    state = sectionsReducer(state, { type: 'markStale', sections: ['security'], now: T0 + 10 });
    expect(state.sections.security).toMatchObject({ stale: true, reloadToken: 0 });
    state = sectionsReducer(state, { type: 'select', section: 'security', now: T0 + 20 });
    expect(state.sections.security).toEqual({ loadedAt: T0 + 20, stale: false, reloadToken: 1 });
  });

  it('reloads the visible section at once when it is flagged', () => {
    let state = initialSections('general', T0);
    state = sectionsReducer(state, { type: 'markStale', sections: ['general'], now: T0 + 5 });
    expect(state.sections.general).toEqual({ loadedAt: T0 + 5, stale: false, reloadToken: 1 });
  });

  it('flags payments and usage when the browser tab becomes visible again', () => {
    let state = initialSections('general', T0);
    state = sectionsReducer(state, { type: 'visible', now: T0 + 1 });
    expect(state.sections.payments.stale).toBe(true);
    expect(state.sections.usage.stale).toBe(true);
    expect(state.sections.general.stale).toBe(false);
    expect(state.sections.plans.stale).toBe(false);
  });
});
