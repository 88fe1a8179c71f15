/** The module's refusals, one class per code (their codes listed in `@kora/contracts`). */
export * from '../domain/errors';
