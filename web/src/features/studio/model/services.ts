/** The four services and their per-track price labels (spec §9); AI mixing is not selectable yet. */
export const SERVICES = [
  { id: 'AI_MASTERING', priceUsd: 4.99, available: true },
  { id: 'STEM_SEPARATION', priceUsd: 6.99, available: true },
  { id: 'AUDIO_ENHANCEMENT', priceUsd: 5.99, available: true },
  { id: 'AI_MIXING', priceUsd: 7.99, available: false },
] as const;

export type ServiceId = (typeof SERVICES)[number]['id'];

export function isSelectableService(value: unknown): value is ServiceId {
  return SERVICES.some((service) => service.id === value && service.available);
}

/** The query parameter, else the stored choice, else AI mastering (spec §4). */
export function initialService(query: string | null, stored: string | null): ServiceId {
  if (isSelectableService(query)) return query;
  if (isSelectableService(stored)) return stored;
  return 'AI_MASTERING';
}
