/** The account settings' sections and what each receives from the page (spec §2). */
export const SETTINGS_SECTIONS = ['general', 'plans', 'usage', 'payments', 'security'] as const;
export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number];

export function isSettingsSection(value: unknown): value is SettingsSectionId {
  return typeof value === 'string' && (SETTINGS_SECTIONS as readonly string[]).includes(value);
}

export interface SettingsSectionProps {
  /** The section is the visible one. */
  active: boolean;
  /** Changes each time the page decides the section must reload (stale flag, or older than 5 minutes). */
  reloadToken: number;
  /** Flags sections for reload (after a change that affects them). */
  markStale(sections: SettingsSectionId[]): void;
}
