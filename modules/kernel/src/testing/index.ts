/**
 * The testing kit, for specs only (`@kora/kernel/testing`; the boundaries keep it out of production code): given/
 * when/then for deciders, and projections folded through their own `target` and `evolve`.
 */
export { DeciderSpecification, type DeciderGiven, type DeciderThen } from './decider-specification';
export {
  eventLog,
  type EventLogOptions,
  ProjectionSpecification,
  type ProjectionThen,
} from './projection-specification';
