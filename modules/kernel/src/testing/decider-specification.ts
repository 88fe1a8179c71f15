import { expect } from '@jest/globals';
import type { Decider } from '../decider';
import type { ErrorKind } from '../errors';
import type { DomainEvent } from '../events';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;

export interface DeciderThen<Event extends DomainEvent> {
  /** The decision is exactly these events, in this order (asymmetric matchers such as `expect.any` allowed). */
  then(expected: readonly Event[]): void;
  /** The command is accepted and changes nothing: an idempotent repeat, or a state already reached. */
  thenNothingHappened(): void;
  /**
   * The decider refuses the command with an error of this class, or whose `code` is this (`'TRACKS.NOT_FOUND'`).
   * Returns the error, for what else a test wants to say about it (its kind, its details).
   */
  thenThrows<E extends Error>(expected: ErrorClass<E>): E;
  thenThrows(expected: string): Error & { code: string; kind?: ErrorKind; details?: Record<string, unknown> };
}

export interface DeciderGiven<Command, Event extends DomainEvent, State> {
  when(command: Command): DeciderThen<Event>;
  /** The state folded from the given events has these fields (others are not compared). */
  thenState(expected: Partial<State> | Record<string, unknown>): void;
}

/**
 * Given/when/then for a decider, after emmett's `DeciderSpecification`: the history is a list of events folded
 * through the decider's own `evolve`, the command goes through its own `decide`, and the result is compared with
 * the events expected, an error, or nothing. One behaviour per test:
 *
 * ```ts
 * const given = DeciderSpecification.for(trackDecider);
 * given([uploaded, requested]).when({ type: 'CancelProcessing' }).then([cancelled]);
 * ```
 */
export const DeciderSpecification = {
  for<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
  ): (history?: Event | readonly Event[]) => DeciderGiven<Command, Event, State> {
    return (history = []) => {
      const events: readonly Event[] = Array.isArray(history) ? history : [history as Event];
      const state = (): State => events.reduce(decider.evolve, decider.initialState());
      return {
        thenState(expected) {
          expect(state()).toMatchObject(expected);
        },
        when(command) {
          const decide = (): Event[] => decider.decide(command, state());
          return {
            then(expected) {
              expect(decide()).toEqual(expected);
            },
            thenNothingHappened() {
              expect(decide()).toEqual([]);
            },
            thenThrows(expected: ErrorClass<Error> | string) {
              let decided: Event[];
              try {
                decided = decide();
              } catch (error) {
                if (typeof expected === 'string') {
                  expect(error).toMatchObject({ code: expected });
                } else {
                  expect(error).toBeInstanceOf(expected);
                }
                return error as never;
              }
              throw new Error(
                `Expected the decider to refuse ${JSON.stringify(command)} with ${
                  typeof expected === 'string' ? expected : expected.name
                }, but it decided ${JSON.stringify(decided)}`,
              );
            },
          };
        },
      };
    };
  },
};
