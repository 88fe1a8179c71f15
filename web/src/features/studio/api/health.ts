import type { HealthReport } from '@kora/contracts';
import { api } from '../../../lib/api';

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
