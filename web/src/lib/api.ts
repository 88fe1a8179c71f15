import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * The one API definition of the client. Features add their endpoints with `api.injectEndpoints`, so each route's
 * bundle carries only its own calls. Tags: one per entity id plus a LIST tag per collection.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({ baseUrl: '/api', credentials: 'include' }),
  tagTypes: ['Health'],
  refetchOnFocus: true,
  endpoints: () => ({}),
});
