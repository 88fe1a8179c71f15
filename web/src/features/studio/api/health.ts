import { api } from '../../../lib/api';

/** What anyone is told; the checks' details go to operators only (OPS_TOKEN). */
export interface HealthReport {
  status: 'ok' | 'degraded';
  failing: string[];
}

const healthApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<HealthReport, void>({
      // A 503 still carries the report: read it instead of treating it as a failure.
      query: () => ({
        url: '/health',
        validateStatus: (response) => response.status === 200 || response.status === 503,
      }),
      providesTags: ['Health'],
    }),
  }),
});

export const { useGetHealthQuery } = healthApi;
