import type { HealthReport } from '@kora/contracts';

/**
 * The backend health check that precedes accepting a file (spec §5), shared by the studio's upload card and the
 * mixing studio.
 */

/** Health check result kept for a minute (spec §9: at most one check every 60 s). */
const HEALTH_TTL_MS = 60_000;
let lastHealth: { at: number; ok: boolean } | null = null;

/** Whether the server can take a file now; asked at most once a minute, remembered meanwhile. */
export async function serverAvailable(now = Date.now()): Promise<boolean> {
  if (lastHealth && now - lastHealth.at < HEALTH_TTL_MS) return lastHealth.ok;
  let ok: boolean;
  try {
    const response = await fetch('/api/health', { headers: { Accept: 'application/json' } });
    // Not JSON (a proxy's page while the server is away): no report.
    const body = (await response.json().catch(() => null)) as HealthReport | null;
    ok = response.ok && body?.status === 'ok';
  } catch {
    ok = false;
  }
  lastHealth = { at: now, ok };
  return ok;
}

/** For tests: forget the remembered health check. */
export function forgetHealth(): void {
  lastHealth = null;
}
