import { describe, expect, it } from '@jest/globals';
import type { Decider } from '../decider';
import { CodedError } from '../errors';
import type { DomainEvent } from '../events';
import { defineProjection } from '../projection';
import { DeciderSpecification, eventLog, ProjectionSpecification } from './index';

type CounterEvent = DomainEvent<'Added', { by: number }> | DomainEvent<'Reset', Record<string, never>>;
type CounterCommand = { type: 'Add'; by: number } | { type: 'Reset' };

class NegativeError extends CodedError {
  readonly code = 'COUNTER.NEGATIVE';
  readonly kind = 'invalid';
}

const counter: Decider<CounterCommand, CounterEvent, number> = {
  initialState: () => 0,
  evolve: (total, event) => (event.type === 'Added' ? total + event.data.by : 0),
  decide(command, total) {
    if (command.type === 'Reset') return total === 0 ? [] : [{ type: 'Reset', data: {} }];
    if (total + command.by < 0) throw new NegativeError('The counter cannot go below zero');
    return [{ type: 'Added', data: { by: command.by } }];
  },
};

describe('the decider specification', () => {
  const given = DeciderSpecification.for(counter);
  const added = (by: number): CounterEvent => ({ type: 'Added', data: { by } });

  it('decides on the state folded from the given events', () => {
    given([added(2), added(3)])
      .when({ type: 'Add', by: -5 })
      .then([added(-5)]);
    given([added(2), added(3)])
      .when({ type: 'Add', by: -6 })
      .thenThrows(NegativeError);
  });

  it('fails when the events differ from the ones expected', () => {
    expect(() =>
      given([])
        .when({ type: 'Add', by: 1 })
        .then([added(2)]),
    ).toThrow();
  });

  it('knows a refusal by its class or by its code, and hands the error back', () => {
    expect(given([]).when({ type: 'Add', by: -1 }).thenThrows(NegativeError).kind).toBe('invalid');
    given([]).when({ type: 'Add', by: -1 }).thenThrows('COUNTER.NEGATIVE');
    expect(() => given([]).when({ type: 'Add', by: -1 }).thenThrows('COUNTER.OTHER')).toThrow();
  });

  it('fails a thenThrows when the decider decides instead', () => {
    expect(() => given([]).when({ type: 'Add', by: 1 }).thenThrows(NegativeError)).toThrow(
      /Expected the decider to refuse .* with NegativeError, but it decided/,
    );
  });

  it('tells nothing happened from something happening', () => {
    given([]).when({ type: 'Reset' }).thenNothingHappened();
    expect(() =>
      given([added(1)])
        .when({ type: 'Reset' })
        .thenNothingHappened(),
    ).toThrow();
  });
});

describe('the projection specification', () => {
  type Counted = DomainEvent<'Counted', { key: string }> | DomainEvent<'Ignored', { key: string }>;
  const counts = defineProjection<Counted, { _id: string; count: number }>({
    name: 'counts',
    version: 1,
    collection: 'counts',
    handles: ['Counted'],
    target: (event) => ({ id: event.data.key }),
    evolve: (current, event) => ({ _id: event.data.key, count: (current?.count ?? 0) + 1 }),
  });
  const givenEvents = ProjectionSpecification.for(counts);

  it('applies only the event types the projection handles', () => {
    const log = eventLog<Counted>();
    givenEvents(
      log.record('c-1', { type: 'Counted', data: { key: 'a' } }),
      log.record('c-1', { type: 'Ignored', data: { key: 'a' } }),
    ).thenDocument('a', { _id: 'a', count: 1 });
  });

  it('skips an event at or below the position a document already carries, as the runner does', () => {
    const log = eventLog<Counted>();
    const first = log.record('c-1', { type: 'Counted', data: { key: 'a' } });
    const second = log.record('c-1', { type: 'Counted', data: { key: 'a' } });
    givenEvents(first, second, second, first).thenDocument('a', { _id: 'a', count: 2 });
  });

  it('applies every event of one append, which share a position', () => {
    const log = eventLog<Counted>();
    const first = log.record('c-1', { type: 'Counted', data: { key: 'a' } });
    const sibling = { ...log.record('c-1', { type: 'Counted', data: { key: 'a' } }), position: first.position };
    givenEvents(first, sibling).thenDocument('a', { _id: 'a', count: 2 });
  });

  it('refuses a projection that changes a document id, as the runner does', () => {
    const renaming = defineProjection<Counted, { _id: string }>({
      ...counts,
      evolve: () => ({ _id: 'other' }),
    });
    const log = eventLog<Counted>();
    expect(() =>
      ProjectionSpecification.for(renaming)(log.record('c-1', { type: 'Counted', data: { key: 'a' } })),
    ).toThrow(/changed _id a to other/);
  });

  it('records events with consecutive revisions per stream and one position per event', () => {
    const log = eventLog<Counted>({ userId: 'u1', occurredAt: '2026-01-01T00:00:00.000Z' });
    const a = log.record('c-1', { type: 'Counted', data: { key: 'a' } });
    const b = log.record('c-2', { type: 'Counted', data: { key: 'b' } });
    const c = log.record('c-1', { type: 'Counted', data: { key: 'c' } }, { occurredAt: '2026-01-02T00:00:00.000Z' });
    expect([a, b, c].map((e) => [e.streamName, e.revision, e.position])).toEqual([
      ['c-1', 0, 1],
      ['c-2', 0, 2],
      ['c-1', 1, 3],
    ]);
    expect(c.metadata).toMatchObject({ userId: 'u1', occurredAt: '2026-01-02T00:00:00.000Z', schemaVersion: 1 });
  });
});
