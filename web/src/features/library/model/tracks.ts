import { isInProgress, MIX_SESSION_STATUSES, STEM_MODES, TRACK_STATUSES } from '@kora/contracts';

/** A finished track opens; one in progress shows cancel instead, and a failed or cancelled one cannot be opened. */
export function canOpen(status: string): boolean {
  return !isInProgress(status) && status !== 'FAILED' && status !== 'CANCELLED';
}

/** A mixing session's status label; a session opens whatever its status (it can be mixed again). */
export function mixStatusKey(status: string): string {
  return `library.mixStatus.${(MIX_SESSION_STATUSES as readonly string[]).includes(status) ? status : 'PROCESSING'}`;
}

/** The stem modes (spec §3) with a label saying what each separates. */
export function stemModeKey(mode: string | null | undefined): string | null {
  return mode && (STEM_MODES as readonly string[]).includes(mode) ? `library.stemMode.${mode}` : null;
}

/** The translation key of a status label. */
export function statusKey(status: string): string {
  return `library.status.${(TRACK_STATUSES as readonly string[]).includes(status) ? status : 'PROCESSING'}`;
}

/** A file name as shown: every HTML tag stripped (spec §5), the same rule as the server's. */
export function displayName(filename: string): string {
  return filename.replace(/<[^>]*>?/g, '').trim();
}

/** Tracks per page in the recent list (spec §9: the client view shows 4 per page). */
export const RECENT_PAGE_SIZE = 4;
