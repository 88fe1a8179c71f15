/** The statuses of a track still being worked on (spec §4): they show cancel instead of open. */
export const IN_PROGRESS_STATUSES: readonly string[] = [
  'UPLOADING',
  'PROCESSING',
  'ANALYZING',
  'ENHANCING',
  'FINALIZING',
  'STEMS_PROCESSING',
];

/** Every status with a label (spec §4); anything else is shown as processing. */
export const KNOWN_STATUSES: readonly string[] = [
  ...IN_PROGRESS_STATUSES,
  'PREVIEW_READY',
  'MASTER_READY',
  'STEMS_READY',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
];

export function isInProgress(status: string): boolean {
  return IN_PROGRESS_STATUSES.includes(status);
}

/** A finished track opens; one in progress shows cancel instead, and a failed or cancelled one cannot be opened. */
export function canOpen(status: string): boolean {
  return !isInProgress(status) && status !== 'FAILED' && status !== 'CANCELLED';
}

/** A mixing session's statuses with a label; a session opens whatever its status (it can be mixed again). */
export const MIX_STATUSES: readonly string[] = ['CREATED', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'];

export function mixStatusKey(status: string): string {
  return `library.mixStatus.${MIX_STATUSES.includes(status) ? status : 'PROCESSING'}`;
}

/** The stem modes (spec §3) with a label saying what each separates. */
export const STEM_MODES: readonly string[] = ['vocals', 'drums', 'guitars', 'full'];

export function stemModeKey(mode: string | null | undefined): string | null {
  return mode && STEM_MODES.includes(mode) ? `library.stemMode.${mode}` : null;
}

/** The translation key of a status label. */
export function statusKey(status: string): string {
  return `library.status.${KNOWN_STATUSES.includes(status) ? status : 'PROCESSING'}`;
}

/** A file name as shown: every HTML tag stripped (spec §5), the same rule as the server's. */
export function displayName(filename: string): string {
  return filename.replace(/<[^>]*>?/g, '').trim();
}

/** Tracks per page in the recent list (spec §9: the client view shows 4 per page). */
export const RECENT_PAGE_SIZE = 4;
