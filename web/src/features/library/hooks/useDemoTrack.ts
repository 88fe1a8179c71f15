import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../../lib/hooks';
import type { Track } from '@kora/contracts';
import { useGetDemoTrackQuery } from '../api/library';

/** After a failure the demo is asked for again after 5 minutes, or at once on the user's action (spec §4, §9). */
export const DEMO_RETRY_MS = 5 * 60_000;
/** A new account's demos are made just after sign-up: an empty answer is asked again this often... */
export const DEMO_WAIT_MS = 3000;
/** ...this many times before the demo counts as unavailable. */
export const DEMO_WAIT_TRIES = 20;

export type DemoState = { status: 'loading' } | { status: 'ready'; track: Track } | { status: 'error' };

/**
 * The account's demo track for `service` (one per service, provisioned by the server): loading, ready, or error.
 * Asked for only once the session is known to be signed in (spec §4).
 */
export function useDemoTrack(service: string): DemoState & { retry(): void } {
  const signedIn = useAppSelector((state) => state.session.status === 'authenticated');
  const query = useGetDemoTrackQuery(service, { skip: !signedIn });
  const { refetch } = query;
  const [emptyAnswers, setEmptyAnswers] = useState(0);
  const lastAnswer = useRef<number | undefined>(undefined);

  // An empty answer while the server is still making the demos: ask again a few times.
  useEffect(() => {
    if (!query.isSuccess || query.data || query.fulfilledTimeStamp === lastAnswer.current) return;
    lastAnswer.current = query.fulfilledTimeStamp;
    setEmptyAnswers((count) => count + 1);
  }, [query.isSuccess, query.data, query.fulfilledTimeStamp]);

  const waiting = query.isSuccess && !query.data && emptyAnswers < DEMO_WAIT_TRIES;
  const failed = query.isError || (query.isSuccess && !query.data && !waiting);

  useEffect(() => {
    if (!waiting || query.isFetching) return;
    const timer = setTimeout(() => void refetch(), DEMO_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waiting, query.isFetching, emptyAnswers, refetch]);

  useEffect(() => {
    if (!failed) return;
    const timer = setTimeout(() => {
      setEmptyAnswers(0);
      void refetch();
    }, DEMO_RETRY_MS);
    return () => clearTimeout(timer);
  }, [failed, refetch]);

  const retry = useCallback(() => {
    setEmptyAnswers(0);
    void refetch();
  }, [refetch]);

  if (query.data && !query.isError) return { status: 'ready', track: query.data, retry };
  if (failed && !query.isFetching) return { status: 'error', retry };
  return { status: 'loading', retry };
}
