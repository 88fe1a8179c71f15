/** Keys the client keeps in browser storage (spec §3, "Browser storage"). */
export const STORAGE_KEYS = {
  /** Session storage: where to go back to after signing in. */
  returnTo: 'returnTo',
  /** Local storage: dark (default) or light. */
  theme: 'theme',
  /** Local storage: the interface language chosen by the user. */
  language: 'language',
  /** Local storage: the service picked on the dashboard. */
  selectedService: 'selectedService',
  /** Session storage: ids of notifications already shown as a toast. */
  toastedNotifications: 'toastedNotifications',
  /**
   * Local storage: the account on this device was just deactivated; the day its data is deleted. The sign-in page
   * says so (instead of opening the provider's page without a word) until the person signs in again.
   */
  deactivated: 'accountDeactivated',
} as const;

/**
 * Storage kept across a logout: the person's interface choices are not personal data, nor is the day a deactivated
 * account will be deleted (kept for the sign-in page's word).
 */
export const KEPT_ON_LOGOUT: readonly string[] = [STORAGE_KEYS.theme, STORAGE_KEYS.language, STORAGE_KEYS.deactivated];

/** The deactivation's deletion day (ISO), if this device deactivated its account and the day has not passed. */
export function deactivationNotice(storage: Storage, now: number): string | null {
  const purgeAfter = storage.getItem(STORAGE_KEYS.deactivated);
  if (purgeAfter === null) return null;
  const day = Date.parse(purgeAfter);
  if (!Number.isFinite(day) || day <= now) {
    storage.removeItem(STORAGE_KEYS.deactivated);
    return null;
  }
  return purgeAfter;
}

/** Paths that must never become a return destination (they would loop through sign-in). */
const AUTH_PATHS = new Set(['/login', '/callback']);

export function saveReturnTo(storage: Storage, path: string): void {
  const pathname = path.split(/[?#]/)[0] ?? '';
  if (!path.startsWith('/') || path.startsWith('//') || AUTH_PATHS.has(pathname)) return;
  storage.setItem(STORAGE_KEYS.returnTo, path);
}

/** Reads and clears the saved destination; `/` when none (or when it is not a local path). */
export function takeReturnTo(storage: Storage): string {
  const saved = storage.getItem(STORAGE_KEYS.returnTo);
  storage.removeItem(STORAGE_KEYS.returnTo);
  if (!saved || !saved.startsWith('/') || saved.startsWith('//')) return '/';
  return saved;
}

/** Clears local and session storage, keeping the interface choices (theme, language). */
export function clearStorage(local: Storage, session: Storage): void {
  const kept = KEPT_ON_LOGOUT.map((key) => [key, local.getItem(key)] as const);
  local.clear();
  session.clear();
  for (const [key, value] of kept) if (value !== null) local.setItem(key, value);
}
