// A projections thread that cannot start (projection-thread.spec.ts).
throw new Error('this projections thread cannot start');
