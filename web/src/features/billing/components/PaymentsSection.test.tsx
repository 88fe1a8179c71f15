import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { type Call, fakeServer, renderRoutes } from '../../../test/fakes';
import { rawTranslationKeys } from '../../../test/translations';
import { PAYMENTS_PER_REQUEST, type PaymentRecord } from '../api/billing';
import { PAYMENTS_PAGE_SIZE, PaymentsSection } from './PaymentsSection';

/** A payment as `/api/payments/history` answers it, at noon UTC on the given day. */
function payment(n: number, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: `pay-${n}`,
    date: new Date(Date.UTC(2026, 0, 1, 12) + n * 86_400_000).toISOString(),
    amount: 19.99,
    currency: 'USD',
    payment_method: 'paypal',
    provider: 'PAYPAL',
    planName: 'Starter',
    planId: 'mastering-starter',
    serviceType: 'AI_MASTERING',
    type: 'subscription',
    trackId: null,
    billingCycle: 'MONTHLY',
    credits: 5,
    status: 'paid',
    failure: null,
    updatedAt: new Date(Date.UTC(2026, 0, 1, 12) + n * 86_400_000).toISOString(),
    ...overrides,
    detailedStatus: overrides.detailedStatus ?? overrides.status ?? 'paid',
  };
}

/** The server's history: newest first, `page` and `limit` (up to 100), `{payments, pagination}`. */
function historyAnswer(all: PaymentRecord[], call: Call) {
  const page = Number(call.query.get('page') ?? '1');
  const limit = Math.min(100, Number(call.query.get('limit') ?? '7'));
  const sorted = [...all].sort((a, b) => b.date.localeCompare(a.date));
  return {
    status: 200,
    body: {
      success: true,
      payments: sorted.slice((page - 1) * limit, page * limit),
      pagination: { total: all.length, page, limit, pages: Math.ceil(all.length / limit) },
    },
  };
}

function setup(payments: PaymentRecord[] | ((call: Call) => { status: number; body?: unknown })) {
  const server = fakeServer({
    'GET /api/user/profile': () => ({ status: 200, body: { success: true, profile: {} } }),
    'GET /api/payments/history': (call) =>
      typeof payments === 'function' ? payments(call) : historyAnswer(payments, call),
  });
  const rendered = renderRoutes(
    [{ path: '/accountSettings', element: <PaymentsSection active reloadToken={0} markStale={jest.fn()} /> }],
    { path: '/accountSettings?section=payments' },
  );
  const section = () => screen.getByRole('region', { name: /^(Payments|Paiements)$/ });
  const rows = () => within(section()).queryAllByRole('row').slice(1);
  const historyCalls = () => server.calls.filter((call) => call.path === '/api/payments/history');
  return { server, ...rendered, section, rows, historyCalls };
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('the payments section', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('loads every page of the history, 100 per request, and shows 7 per page, newest first', async () => {
    const all = Array.from({ length: 2 * PAYMENTS_PER_REQUEST + 5 }, (_, n) => payment(n + 1));
    const { rows, historyCalls } = setup(all);
    await waitFor(() => expect(rows()).toHaveLength(PAYMENTS_PAGE_SIZE));
    expect(PAYMENTS_PAGE_SIZE).toBe(7);
    expect(historyCalls().map((call) => [call.query.get('page'), call.query.get('limit')])).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
    // The newest payment (the 205th day) comes first; 205 payments make 30 pages of 7.
    expect(cells(rows()[0]!)[1]).toBe('Jul 25, 2026');
    const pagination = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pagination).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    await userEvent.click(within(pagination).getByRole('button', { name: 'Last' }));
    expect(rows()).toHaveLength(205 - 29 * 7);
    expect(within(pagination).getByRole('button', { name: 'Page 30' }).getAttribute('aria-current')).toBe('page');
    expect(cells(rows().at(-1)!)[1]).toBe('Jan 2, 2026');
  });

  it('stops after one request when the first page holds the whole history', async () => {
    const { rows, historyCalls } = setup([payment(1), payment(2)]);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(historyCalls()).toHaveLength(1);
    expect(historyCalls()[0]!.query.get('page')).toBe('1');
    expect(historyCalls()[0]!.query.get('limit')).toBe(String(PAYMENTS_PER_REQUEST));
    // Two payments, one page: no pagination.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('searches the plan name, the method and the date as shown, on the client, back on page 1', async () => {
    const all = [
      ...Array.from({ length: 10 }, (_, n) => payment(n + 1)),
      payment(40, { id: 'om-pro', planName: 'Pro', payment_method: 'mobile money', amount: 37500, currency: 'XOF' }),
      payment(41, { id: 'track', planName: 'Pay Per Track', amount: 4.59, currency: 'EUR' }),
    ];
    const { rows, historyCalls } = setup(all);
    await waitFor(() => expect(rows()).toHaveLength(7));
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    const search = screen.getByRole('searchbox', { name: 'Search payments' });

    await userEvent.type(search, 'PRO');
    expect(rows().map(cells)).toEqual([['Mobile money', 'Feb 10, 2026', '37,500\u00a0FCFA', 'Paid']]);
    await userEvent.clear(search);
    await userEvent.type(search, 'mobile');
    expect(rows().map((row) => cells(row)[0])).toEqual(['Mobile money']);
    await userEvent.clear(search);
    await userEvent.type(search, 'per track');
    expect(rows().map((row) => cells(row)[2])).toEqual(['€4.59']);
    await userEvent.clear(search);
    await userEvent.type(search, 'Jan 5, 2026');
    expect(rows().map((row) => cells(row)[1])).toEqual(['Jan 5, 2026']);
    await userEvent.clear(search);
    await userEvent.type(search, 'paypal');
    expect(rows()).toHaveLength(7);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    await userEvent.clear(search);
    await userEvent.type(search, 'wave');
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No payment matches your search.')).toBeTruthy();
    // The search filters what was loaded (dates as the user reads them): the server is not asked again, nor given
    // the search, which it would match on other texts.
    expect(historyCalls()).toHaveLength(1);
    expect(historyCalls()[0]!.query.get('search') ?? '').toBe('');
  });

  it('labels each status: paid, pending, failed and refunded', async () => {
    const { rows, section } = setup([
      payment(1, { status: 'paid' }),
      payment(2, { status: 'pending' }),
      payment(3, { status: 'failed' }),
      payment(4, { status: 'refunded' }),
    ]);
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows().map((row) => cells(row)[3])).toEqual(['Refunded', 'Failed', 'Pending', 'Paid']);
    expect(within(section()).getByText('Paid').className).toContain('badge--ok');
    expect(within(section()).getByText('Failed').className).not.toContain('badge--ok');
  });

  it('calls a cancelled or expired payment so, not failed (the detailed status the server sends beside it)', async () => {
    // The server's `status` counts a cancelled or expired payment as failed; `detailedStatus` names it.
    const { rows, section } = setup([
      payment(1, { status: 'failed', detailedStatus: 'cancelled' }),
      payment(2, { status: 'failed', detailedStatus: 'expired' }),
      payment(3, { status: 'failed', detailedStatus: 'failed' }),
      payment(4, { status: 'refunded', detailedStatus: 'refunded' }),
      payment(5, { status: 'paid', detailedStatus: 'paid' }),
      payment(6, { status: 'failed', detailedStatus: 'cancelled', payment_method: 'mobile money' }),
    ]);
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(rows().map((row) => cells(row)[3])).toEqual([
      'Cancelled',
      'Paid',
      'Refunded',
      'Failed',
      'Expired',
      'Cancelled',
    ]);
    expect(within(section()).getAllByText('Cancelled')[0]!.className).not.toContain('badge--ok');
    expect(within(section()).getByText('Paid').className).toContain('badge--ok');
  });

  it('says when there is no payment yet', async () => {
    const { section, historyCalls } = setup([]);
    await screen.findByText("You haven't made any payment yet.");
    expect(within(section()).queryByRole('table')).toBeNull();
    expect(historyCalls()).toHaveLength(1);
  });

  it('replaces the page with an error when a page of the history fails, and retries', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const all = Array.from({ length: 150 }, (_, n) => payment(n + 1));
    let failing = true;
    const { rows, section, historyCalls } = setup((call) =>
      failing && call.query.get('page') === '2'
        ? { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'Internal error' } }
        : historyAnswer(all, call),
    );
    const alert = await within(section()).findByRole('alert');
    expect(alert.textContent).toContain('Your payment history could not be loaded.');
    // No half history beside the error: the table and the search are gone.
    expect(within(section()).queryByRole('table')).toBeNull();
    expect(within(section()).queryByRole('searchbox')).toBeNull();
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(7));
    expect(historyCalls().map((call) => call.query.get('page'))).toEqual(['1', '2', '1', '2']);
  });

  it('speaks French: columns, methods, statuses, amounts, dates, empty and error texts, no raw key', async () => {
    await act(() => i18n.changeLanguage('fr'));
    const { rows, section } = setup([
      payment(1, { status: 'paid', planName: 'Pro', payment_method: 'mobile money', amount: 37500, currency: 'XOF' }),
      payment(2, { status: 'pending', amount: 4.99 }),
      payment(3, { status: 'failed', currency: 'EUR', amount: 18.99 }),
      payment(4, { status: 'refunded', payment_method: 'card' }),
      payment(5, {
        status: 'failed',
        detailedStatus: 'cancelled',
        payment_method: 'mobile money',
        amount: 3000,
        currency: 'XOF',
      }),
      payment(6, {
        status: 'failed',
        detailedStatus: 'expired',
        payment_method: 'mobile money',
        amount: 3000,
        currency: 'XOF',
      }),
    ]);
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(
      within(section())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Moyen de paiement', 'Date', 'Montant', 'Statut']);
    expect(rows().map(cells)).toEqual([
      ['Mobile money', '7 janv. 2026', '3\u202f000\u00a0FCFA', 'Expiré'],
      ['Mobile money', '6 janv. 2026', '3\u202f000\u00a0FCFA', 'Annulé'],
      ['Carte bancaire', '5 janv. 2026', '19,99\u00a0$', 'Remboursé'],
      ['PayPal', '4 janv. 2026', '18,99\u00a0€', 'Échoué'],
      ['PayPal', '3 janv. 2026', '4,99\u00a0$', 'En attente'],
      ['Mobile money', '2 janv. 2026', '37\u202f500\u00a0FCFA', 'Payé'],
    ]);
    expect(rawTranslationKeys(section())).toEqual([]);
    const search = screen.getByRole('searchbox', { name: 'Rechercher un paiement' });
    await userEvent.type(search, 'janv');
    expect(rows()).toHaveLength(6);
    await userEvent.clear(search);
    await userEvent.type(search, 'carte');
    expect(rows().map((row) => cells(row)[0])).toEqual(['Carte bancaire']);
    await userEvent.clear(search);
    await userEvent.type(search, 'wave');
    expect(screen.getByText('Aucun paiement ne correspond à votre recherche.')).toBeTruthy();
    expect(rawTranslationKeys(section())).toEqual([]);
  });

  it('speaks French when the history is empty or fails', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await act(() => i18n.changeLanguage('fr'));
    const empty = setup([]);
    await screen.findByText('Vous n’avez encore effectué aucun paiement.');
    expect(rawTranslationKeys(empty.section())).toEqual([]);
    empty.unmount();
    const failed = setup(() => ({ status: 503, body: { statusCode: 503, code: 'X', message: 'down' } }));
    const alert = await within(failed.section()).findByRole('alert');
    expect(alert.textContent).toContain('Impossible de charger votre historique de paiements.');
    expect(within(alert).getByRole('button', { name: 'Réessayer' })).toBeTruthy();
    expect(rawTranslationKeys(failed.section())).toEqual([]);
  });
});
