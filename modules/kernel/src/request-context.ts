import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line and every appended event of one request (or job) carries. */
export interface RequestContext {
  readonly correlationId: string;
  userId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<R>(context: RequestContext, work: () => R): R {
    return storage.run(context, work);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};
