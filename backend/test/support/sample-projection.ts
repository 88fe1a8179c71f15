import { defineProjection, type DomainEvent, type EventToAppend } from '@kora/kernel';
import { testEvent } from './temp';

/** A small library domain that exercises every projection feature: create, update, delete, and a filter target. */
export type LibraryEvent =
  | DomainEvent<'ItemAdded', { itemId: string; ownerId: string; title: string }>
  | DomainEvent<'ItemRenamed', { itemId: string; title: string }>
  | DomainEvent<'ItemPlayed', { itemId: string }>
  | DomainEvent<'ItemRemoved', { itemId: string }>
  | DomainEvent<'OwnerPurged', { ownerId: string }>;

export interface LibraryItem {
  _id: string;
  ownerId: string;
  title: string;
  plays: number;
  history: string[];
}

export const libraryProjection = defineProjection<LibraryEvent, LibraryItem>({
  name: 'library-items',
  version: 1,
  collection: 'library_items',
  indexes: [{ fields: { ownerId: 1, title: 1 } }],
  handles: ['ItemAdded', 'ItemRenamed', 'ItemPlayed', 'ItemRemoved', 'OwnerPurged'],
  target(event) {
    return event.type === 'OwnerPurged' ? { where: { ownerId: event.data.ownerId } } : { id: event.data.itemId };
  },
  evolve(current, event) {
    switch (event.type) {
      case 'ItemAdded':
        return { _id: event.data.itemId, ownerId: event.data.ownerId, title: event.data.title, plays: 0, history: [] };
      case 'ItemRenamed':
        return current && { ...current, title: event.data.title, history: [...current.history, current.title] };
      case 'ItemPlayed':
        // Not idempotent by itself: only the runner's position guard keeps a replay from counting twice.
        return current && { ...current, plays: current.plays + 1 };
      case 'ItemRemoved':
      case 'OwnerPurged':
        return null;
    }
  },
});

/** A deterministic pseudo-random history of library events over `streams` items and `owners` owners. */
export function libraryHistory(count: number, streams = 50, owners = 5, seed = 7): Array<[string, EventToAppend]> {
  let state = seed;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const alive = new Map<string, string>();
  const result: Array<[string, EventToAppend]> = [];
  let serial = 0;
  while (result.length < count) {
    const n = Math.floor(random() * streams);
    const itemId = `item-${n}-${serial}`;
    const existing = [...alive.keys()];
    const pick = existing[Math.floor(random() * existing.length)];
    const roll = random();
    if (!pick || roll < 0.25) {
      const ownerId = `owner-${Math.floor(random() * owners)}`;
      alive.set(itemId, ownerId);
      serial += 1;
      result.push([itemId, testEvent('ItemAdded', { itemId, ownerId, title: `Title ${serial}` }, { userId: ownerId })]);
    } else if (roll < 0.55) {
      result.push([pick, testEvent('ItemPlayed', { itemId: pick })]);
    } else if (roll < 0.8) {
      result.push([pick, testEvent('ItemRenamed', { itemId: pick, title: `Renamed ${result.length}` })]);
    } else if (roll < 0.995) {
      alive.delete(pick);
      result.push([pick, testEvent('ItemRemoved', { itemId: pick })]);
    } else {
      const ownerId = alive.get(pick)!;
      for (const [id, owner] of alive) if (owner === ownerId) alive.delete(id);
      result.push([`owner-${ownerId}`, testEvent('OwnerPurged', { ownerId })]);
    }
  }
  return result;
}
