/**
 * The testing kit, for specs only (`@kora/kernel/testing`; the boundaries keep it out of production code): given/
 * when/then for deciders, projections folded through their own `target` and `evolve`, and the stand-ins a job kind's
 * request processor meets.
 */
export { DeciderSpecification, type DeciderGiven, type DeciderThen } from './decider-specification';
export {
  eventLog,
  type EventLogOptions,
  ProjectionSpecification,
  type ProjectionThen,
} from './projection-specification';
export { type EnqueuedJob, jobRequestsKit } from './job-requests-kit';
