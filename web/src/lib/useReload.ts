import { useEffect, useRef } from 'react';

/** Calls `reload` each time `token` changes after the first render (the first load is the query's own). */
export function useReload(token: number, reload: () => unknown): void {
  const first = useRef(token);
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    if (token !== first.current) latest.current();
  }, [token]);
}
