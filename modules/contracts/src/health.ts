/**
 * `GET /api/health` (public; 200 when every check is up, 503 when one is down) as anyone gets it: the status, and the
 * names of the checks that failed. With the operators' token (OPS_TOKEN) it also carries each check's details.
 */
export interface HealthReport {
  status: 'ok' | 'degraded';
  failing: string[];
}
