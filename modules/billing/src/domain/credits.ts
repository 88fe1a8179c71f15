import type { Decider } from '@kora/kernel';
import type { BillingCycle, BillingService, CreditEvent, Money, PackService } from '../contracts/events';
import { InsufficientCreditsError, PackNotFoundError, PackNotRenewingError } from './errors';

export interface Pack {
  packId: string;
  service: PackService;
  credits: number;
  used: number;
  removed: number;
  startDate: string;
  endDate: string;
  renewalCancelled: boolean;
}

/** The ledger of one account: its packs, and what was already granted or unlocked (so nothing happens twice). */
export interface CreditsState {
  packs: Map<string, Pack>;
  /** Payments whose pack is already granted. */
  granted: Set<string>;
  /** Tracks (or mix sessions) a credit was already spent on, each with the spend that paid it. */
  unlocked: Map<string, string>;
}

export type CreditsCommand =
  | {
      type: 'PurchasePack';
      paymentId: string;
      planId: string;
      planName: string;
      service: PackService;
      billingCycle: BillingCycle;
      credits: number;
      startDate: string;
      endDate: string;
      price: Money;
      /** The instant of the decision (the balance the event carries is of the packs usable then). */
      now: string;
    }
  | {
      type: 'SpendCredit';
      spendId: string;
      service: BillingService;
      trackId: string;
      trackName: string;
      trackDuration: number;
      /** The instant of the decision (packs are usable in [startDate, endDate)). */
      now: string;
    }
  | { type: 'CancelRenewal'; packId: string; now: string }
  | { type: 'ExpireCredits'; now: string }
  | { type: 'RevokeCredits'; paymentId: string; now: string };

export const initialCreditsState = (): CreditsState => ({ packs: new Map(), granted: new Set(), unlocked: new Map() });

const left = (pack: Pack): number => pack.credits - pack.used - pack.removed;

/**
 * Whether a pack renews by itself. Every pack is paid by one order (a PayPal order, an Orange Money payment) and no
 * recurring payment exists: none renews. (`PackRenewalCancelled`, recorded by earlier versions, changed nothing.)
 */
export const packRenews = (_pack: Pick<Pack, 'packId'>): boolean => false;

const usable = (pack: Pack, now: string): boolean => pack.startDate <= now && now < pack.endDate && left(pack) > 0;

/** Credits of a service usable at `now`. */
export function balanceOf(state: CreditsState, service: BillingService, now: string): number {
  let total = 0;
  for (const pack of state.packs.values()) if (pack.service === service && usable(pack, now)) total += left(pack);
  return total;
}

function withPack(state: CreditsState, packId: string, change: (pack: Pack) => Pack): CreditsState {
  const pack = state.packs.get(packId);
  if (!pack) return state;
  return { ...state, packs: new Map(state.packs).set(packId, change(pack)) };
}

export function evolveCredits(state: CreditsState, event: CreditEvent): CreditsState {
  switch (event.type) {
    case 'PackPurchased': {
      const d = event.data;
      return {
        ...state,
        granted: new Set(state.granted).add(d.paymentId),
        packs: new Map(state.packs).set(d.packId, {
          packId: d.packId,
          service: d.service,
          credits: d.credits,
          used: 0,
          removed: 0,
          startDate: d.startDate,
          endDate: d.endDate,
          renewalCancelled: false,
        }),
      };
    }
    case 'CreditSpent': {
      const next = withPack(state, event.data.packId, (pack) => ({ ...pack, used: pack.used + event.data.credits }));
      return { ...next, unlocked: new Map(state.unlocked).set(event.data.trackId, event.data.spendId) };
    }
    case 'PackRenewalCancelled': {
      const packs = new Map(state.packs);
      for (const id of event.data.packIds) {
        const pack = packs.get(id);
        if (pack) packs.set(id, { ...pack, renewalCancelled: true });
      }
      return { ...state, packs };
    }
    case 'CreditsExpired':
    case 'CreditsRevoked':
      return withPack(state, event.data.packId, (pack) => ({ ...pack, removed: pack.removed + event.data.credits }));
  }
}

export function decideCredits(command: CreditsCommand, state: CreditsState): CreditEvent[] {
  switch (command.type) {
    case 'PurchasePack': {
      if (state.granted.has(command.paymentId)) return []; // granted already: a capture grants once
      const { type: _type, now, ...pack } = command;
      const data = { ...pack, packId: command.paymentId };
      // The balance after it: the credits usable at that instant, this pack's included once it has started.
      const after = evolveCredits(state, { type: 'PackPurchased', data: { ...data, balance: 0 } });
      return [{ type: 'PackPurchased', data: { ...data, balance: balanceOf(after, command.service, now) } }];
    }
    case 'SpendCredit': {
      if (state.unlocked.has(command.trackId)) return []; // paid for already: never twice for one result
      // The pack that ends first is spent first.
      const pack = [...state.packs.values()]
        .filter((candidate) => candidate.service === command.service && usable(candidate, command.now))
        .sort((a, b) => a.endDate.localeCompare(b.endDate) || a.packId.localeCompare(b.packId))[0];
      if (!pack) throw new InsufficientCreditsError();
      return [
        {
          type: 'CreditSpent',
          data: {
            spendId: command.spendId,
            packId: pack.packId,
            service: command.service,
            trackId: command.trackId,
            trackName: command.trackName,
            trackDuration: command.trackDuration,
            credits: 1,
            // What is left usable then: a pack past its end that the expiry pass has not swept yet is not counted.
            balance: balanceOf(state, command.service, command.now) - 1,
          },
        },
      ];
    }
    case 'CancelRenewal': {
      const pack = state.packs.get(command.packId);
      if (!pack || pack.endDate <= command.now) throw new PackNotFoundError();
      if (!packRenews(pack)) throw new PackNotRenewingError();
      return pack.renewalCancelled ? [] : [{ type: 'PackRenewalCancelled', data: { packIds: [pack.packId] } }];
    }
    case 'ExpireCredits': {
      const events: CreditEvent[] = [];
      let current = state;
      for (const pack of state.packs.values()) {
        if (pack.endDate > command.now || left(pack) <= 0) continue;
        const data = { packId: pack.packId, service: pack.service, credits: left(pack) };
        current = evolveCredits(current, { type: 'CreditsExpired', data: { ...data, balance: 0 } });
        events.push({
          type: 'CreditsExpired',
          data: { ...data, balance: balanceOf(current, pack.service, command.now) },
        });
      }
      return events;
    }
    case 'RevokeCredits': {
      const pack = state.packs.get(command.paymentId);
      if (!pack) throw new PackNotFoundError('This payment granted no pack.');
      // Nothing left to take back (revoked at an earlier refund of the payment, spent, expired): nothing to record.
      if (left(pack) <= 0) return [];
      const data = { packId: pack.packId, paymentId: command.paymentId, service: pack.service, credits: left(pack) };
      const after = evolveCredits(state, { type: 'CreditsRevoked', data: { ...data, balance: 0 } });
      return [{ type: 'CreditsRevoked', data: { ...data, balance: balanceOf(after, pack.service, command.now) } }];
    }
  }
}

export const creditsDecider: Decider<CreditsCommand, CreditEvent, CreditsState> = {
  initialState: initialCreditsState,
  evolve: evolveCredits,
  decide: decideCredits,
};
