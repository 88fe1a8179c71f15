import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { Plan } from '@kora/contracts';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { type PackPurchaseSlotProps, PlansSection, priceIn } from './PlansSection';

const STARTER: Plan = {
  id: 'mastering-starter',
  name: 'Starter',
  price: 19.99,
  priceUSD: 19.99,
  priceEUR: 18.99,
  priceXOF: 12500,
  currency: 'USD',
  billingCycle: 'MONTHLY',
  serviceType: 'AI_MASTERING',
  features: ['5 masters a month'],
  i18n: { en: { features: ['5 masters a month'] }, fr: { features: ['5 masters par mois'] } },
  masteringLimit: 5,
  audioEnhancementLimit: 0,
  stemSeparationLimit: 0,
  recommended: false,
  icon: 'rocket',
  credits: 5,
  yearly: { priceUSD: 191.9, priceEUR: 182.3, priceXOF: 120000, credits: 60 },
  yearlyDiscountPercent: 20,
  purchasable: true,
};

const PACK = {
  id: 'pay-1',
  planId: 'mastering-starter',
  planName: 'Starter',
  serviceType: 'AI_MASTERING',
  billingCycle: 'MONTHLY',
  limit: 5,
  used: 1,
  remaining: 4,
  startDate: '2026-11-01T00:00:00.000Z',
  endDate: '2026-12-01T00:00:00.000Z',
};

/** A pack paid by one order: it does not renew (every pack the server sells today). */
const ONE_OFF = {
  ...PACK,
  id: 'pay-2',
  planId: 'stems-pro',
  planName: 'Pro',
  serviceType: 'STEM_SEPARATION',
  renews: false,
  renewalCancelled: false,
};

/** The single-track price of the service, as `/api/plans/payngo` sends it. */
const PAY_PER_TRACK: Plan = {
  id: 'payngo-mastering',
  name: 'Pay Per Track',
  price: 4.99,
  priceUSD: 4.99,
  priceEUR: 4.59,
  priceXOF: 3000,
  currency: 'USD',
  billingCycle: 'MONTHLY',
  serviceType: 'AI_MASTERING',
  features: ['One mastered track'],
  i18n: { en: { features: ['One mastered track'] }, fr: { features: ['Un titre masterisé'] } },
  masteringLimit: 0,
  audioEnhancementLimit: 0,
  stemSeparationLimit: 0,
  recommended: false,
  icon: 'rocket',
  credits: 0,
  yearly: null,
  yearlyDiscountPercent: 0,
  purchasable: false,
};

function setup(packs: Array<Record<string, unknown>> = [{ ...PACK, renews: true }]) {
  const cancelled = new Set<string>();
  const server = fakeServer({
    'GET /api/plans': () => ({ status: 200, body: { plans: [STARTER] } }),
    'GET /api/plans/payngo': () => ({
      status: 200,
      body: { plans: [PAY_PER_TRACK, { ...PAY_PER_TRACK, id: 'payngo-stems', serviceType: 'STEM_SEPARATION' }] },
    }),
    'GET /api/subscriptions/current': () => ({
      status: 200,
      body: {
        success: true,
        subscription: {
          activePacks: packs.map((pack) => ({ ...pack, renewalCancelled: cancelled.has(pack.id as string) })),
        },
      },
    }),
    'POST /api/subscriptions/cancel': (call) => {
      cancelled.add((call.body as { packId: string }).packId);
      return { status: 200, body: { success: true } };
    },
  });
  const bought: PackPurchaseSlotProps[] = [];
  const Purchase = (props: PackPurchaseSlotProps) => {
    bought.push(props);
    return <p>purchase panel</p>;
  };
  const markStale = jest.fn();
  renderRoutes(
    [
      {
        path: '/accountSettings',
        element: <PlansSection active reloadToken={0} markStale={markStale} Purchase={Purchase} />,
      },
    ],
    { path: '/accountSettings?section=plans&service=AI_MASTERING' },
  );
  return { server, bought };
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('the plans section', () => {
  it('prices a year from the server, else as 12 months less 20 %', () => {
    expect(priceIn(STARTER, 'USD', 'YEARLY')).toBe(191.9);
    expect(priceIn({ ...STARTER, yearly: null }, 'XOF', 'YEARLY')).toBe(120000);
    expect(priceIn({ ...STARTER, yearly: null }, 'EUR', 'YEARLY')).toBe(182.3);
    expect(priceIn(STARTER, 'EUR')).toBe(18.99);
  });

  it('shows active packs with usage and dates, and buys in the chosen currency and cycle', async () => {
    const { bought } = setup();
    await screen.findByText(/4 left, 1 used of 5/);
    await userEvent.selectOptions(screen.getByLabelText('Currency'), 'USD');
    await userEvent.click(screen.getByRole('button', { name: 'Yearly (−20%)' }));
    await screen.findByText('$191.90');
    expect(screen.getByText(/Instead of \$239\.88: 20% off/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Buy Starter' }));
    await screen.findByText('purchase panel');
    expect(bought.at(-1)).toMatchObject({ billingCycle: 'YEARLY', currency: 'USD', amount: 191.9 });
    expect(bought.at(-1)?.plan.id).toBe('mastering-starter');
  });

  it('shows the Pay Per Track plan of the service among the cards, its buy button disabled (spec §2)', async () => {
    setup();
    const card = (await screen.findByRole('heading', { name: 'Pay Per Track' })).closest('li')!;
    expect(card.querySelector('.plan-card__price')?.textContent).toBe('3,000\u00a0FCFA / track');
    expect(within(card).getByText('One mastered track')).toBeTruthy();
    const buy = within(card).getByRole('button', { name: 'Buy Pay Per Track' }) as HTMLButtonElement;
    expect(buy.disabled).toBe(true);
    expect(document.getElementById(buy.getAttribute('aria-describedby')!)?.textContent).toMatch(/result/);
    // One per service: the stems one is not shown under mastering.
    expect(screen.getAllByRole('heading', { name: 'Pay Per Track' })).toHaveLength(1);
    expect((screen.getByRole('button', { name: 'Buy Starter' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('in French: the features in French, prices and plurals as French writes them', async () => {
    await act(() => i18n.changeLanguage('fr'));
    setup([{ ...PACK, renews: false, remaining: 4, used: 1 }]);
    await screen.findByText(/^4 restants, 1 utilisé sur 5 ·/);
    expect(screen.getByText('5 masters par mois')).toBeTruthy();
    expect(screen.queryByText('5 masters a month')).toBeNull();
    expect(screen.getByText('Un titre masterisé')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Devise'), 'USD');
    const prices = [...document.querySelectorAll('.plan-card__price')].map((price) => price.textContent);
    expect(prices).toEqual(['4,99\u00a0$ / morceau', '19,99\u00a0$ / mois']);
  });

  it('cancels the renewal of one pack, the one that renews, only after the confirmation', async () => {
    const { server } = setup([{ ...PACK, renews: true }, ONE_OFF]);
    const cancel = await screen.findByRole('button', { name: 'Cancel the renewal of the Starter pack' });
    // One button per pack that renews: none for the pack paid once.
    expect(screen.getAllByRole('button', { name: /Cancel the renewal/ })).toHaveLength(1);
    await userEvent.click(cancel);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the renewal of the Starter pack?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my subscription' }));
    expect(server.calls.some((call) => call.path === '/api/subscriptions/cancel')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the renewal of the Starter pack' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Cancel the renewal of the Starter pack?' })).getByRole(
        'button',
        { name: 'Yes, cancel' },
      ),
    );
    await screen.findByText('Not renewed');
    await waitFor(() => expect(screen.queryByRole('button', { name: /Cancel the renewal/ })).toBeNull());
    const calls = server.calls.filter((call) => call.path === '/api/subscriptions/cancel');
    expect(calls.map((call) => call.body)).toEqual([{ packId: 'pay-1' }]);
  });

  it('never speaks of renewal for packs paid once', async () => {
    setup([ONE_OFF, { ...ONE_OFF, id: 'pay-3', planName: 'Starter', serviceType: 'AI_MASTERING' }]);
    const notes = await screen.findAllByText(/^Paid once: this pack does not renew\. Its credits stay usable until/);
    expect(notes).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /renewal/i })).toBeNull();
    expect(screen.queryByText('Not renewed')).toBeNull();
  });
});
