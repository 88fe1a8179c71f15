import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { rawTranslationKeys } from '../../../test/translations';
import type { UsageEntry } from '../api/billing';
import { USAGE_PAGE_SIZE, UsageSection } from './UsageSection';

/** A credit spent on the n-th day of 2026 (noon UTC), newest first as the server answers. */
function entry(n: number, overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    id: `use-${n}`,
    date: new Date(Date.UTC(2026, 0, 1, 12) + (n - 1) * 86_400_000).toISOString(),
    trackId: `track-${n}`,
    trackName: `Song ${n}.wav`,
    serviceType: 'AI_MASTERING',
    trackDuration: 60 + n,
    creditsUsed: 1,
    ...overrides,
  };
}
const newestFirst = (entries: UsageEntry[]) => [...entries].sort((a, b) => b.date.localeCompare(a.date));

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

type Answer = { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;

function setup(answer: UsageEntry[] | (() => Answer)) {
  const server = fakeServer({
    'GET /api/user/profile': () => ({ status: 200, body: { success: true, profile: {} } }),
    'GET /api/subscriptions/usage-history': () =>
      typeof answer === 'function' ? answer() : { status: 200, body: { success: true, history: answer } },
  });
  const rendered = renderRoutes(
    [{ path: '/accountSettings', element: <UsageSection active reloadToken={0} markStale={jest.fn()} /> }],
    { path: '/accountSettings?section=usage' },
  );
  const section = () => screen.getByRole('region', { name: /^(Credit usage|Consommation de crédits)$/ });
  const rows = () => within(section()).queryAllByRole('row').slice(1);
  const usageCalls = () => server.calls.filter((call) => call.path === '/api/subscriptions/usage-history');
  return { server, ...rendered, section, rows, usageCalls };
}

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const pagination = () => screen.queryByRole('navigation', { name: 'Pagination' });
const pageButtons = () =>
  within(pagination()!)
    .getAllByRole('button', { name: /^Page \d+$/ })
    .map((button) => button.textContent);

describe('the credit usage section', () => {
  afterEach(async () => {
    setWidth(1024);
    await act(() => i18n.changeLanguage('en'));
  });

  it('shows 10 entries per page: date, track, service, duration as m:ss, credits', async () => {
    const all = newestFirst([
      ...Array.from({ length: 22 }, (_, n) => entry(n + 1)),
      entry(23, { trackName: 'Sunu <b>gaal</b>.wav', serviceType: 'STEM_SEPARATION', trackDuration: 187 }),
    ]);
    const { rows, section, usageCalls } = setup(all);
    await waitFor(() => expect(rows()).toHaveLength(USAGE_PAGE_SIZE));
    expect(USAGE_PAGE_SIZE).toBe(10);
    expect(usageCalls()).toHaveLength(1);
    expect(
      within(section())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Track', 'Service', 'Duration', 'Credits']);
    // The track name's tags are stripped; 187 s is 3:07.
    expect(cells(rows()[0]!)).toEqual(['Jan 23, 2026', 'Sunu gaal.wav', 'Stem separation', '3:07', '1']);
    expect(cells(rows()[1]!)).toEqual(['Jan 22, 2026', 'Song 22.wav', 'AI mastering', '1:22', '1']);
    expect(pageButtons()).toEqual(['1', '2', '3']);
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(rows().map((row) => cells(row)[1])).toEqual(['Song 3.wav', 'Song 2.wav', 'Song 1.wav']);
    expect(cells(rows()[2]!)[3]).toBe('1:01');
  });

  it('shows no pagination for a single page', async () => {
    const { rows } = setup(newestFirst(Array.from({ length: 10 }, (_, n) => entry(n + 1))));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(pagination()).toBeNull();
  });

  it('pages with a window of 5 numbers and first/last buttons, 3 and none at 576 px or less', async () => {
    const { rows } = setup(newestFirst(Array.from({ length: 95 }, (_, n) => entry(n + 1))));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(pageButtons()).toEqual(['1', '2', '3', '4', '5']);
    await userEvent.click(screen.getByRole('button', { name: 'Last' }));
    expect(rows()).toHaveLength(5);
    expect(pageButtons()).toEqual(['6', '7', '8', '9', '10']);
    await userEvent.click(screen.getByRole('button', { name: 'Page 7' }));
    expect(pageButtons()).toEqual(['5', '6', '7', '8', '9']);
    await userEvent.click(screen.getByRole('button', { name: 'First' }));
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');

    setWidth(577);
    expect(pageButtons()).toHaveLength(5);
    setWidth(576);
    expect(pageButtons()).toEqual(['1', '2', '3']);
    expect(within(pagination()!).queryByRole('button', { name: 'First' })).toBeNull();
    expect(within(pagination()!).queryByRole('button', { name: 'Last' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(pageButtons()).toEqual(['2', '3', '4']);
    expect(rows().map((row) => cells(row)[1])[0]).toBe('Song 75.wav');
  });

  it('searches the track name as shown, in any case, back on page 1; no match has its own text', async () => {
    const all = newestFirst([
      ...Array.from({ length: 25 }, (_, n) => entry(n + 1)),
      entry(30, { trackName: '<b>Sunu</b> Gaal (final).wav' }),
    ]);
    const { rows, usageCalls } = setup(all);
    await waitFor(() => expect(rows()).toHaveLength(10));
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    const search = screen.getByRole('searchbox', { name: 'Search by track name' });
    await userEvent.type(search, 'SONG 2');
    // Song 2 and Song 20 to Song 25, on page 1 and without pagination.
    expect(rows().map((row) => cells(row)[1])).toEqual([
      'Song 25.wav',
      'Song 24.wav',
      'Song 23.wav',
      'Song 22.wav',
      'Song 21.wav',
      'Song 20.wav',
      'Song 2.wav',
    ]);
    expect(pagination()).toBeNull();
    await userEvent.clear(search);
    // What the table shows is what the search finds: the name without its tags.
    await userEvent.type(search, 'sunu gaal');
    expect(rows().map((row) => cells(row)[1])).toEqual(['Sunu Gaal (final).wav']);
    await userEvent.clear(search);
    await userEvent.type(search, '<b>');
    expect(rows()).toHaveLength(0);
    await userEvent.clear(search);
    await userEvent.type(search, 'podcast');
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No track matches your search.')).toBeTruthy();
    expect(screen.queryByText("You haven't used any credit yet.")).toBeNull();
    expect(usageCalls()).toHaveLength(1);
  });

  it('says when no credit was used yet', async () => {
    const { section } = setup([]);
    await screen.findByText("You haven't used any credit yet.");
    expect(within(section()).queryByRole('table')).toBeNull();
    expect(screen.queryByText('No track matches your search.')).toBeNull();
  });

  it('shows the loading message, then the load error with a retry that loads', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    let release: (answer: { status: number; body?: unknown }) => void = () => undefined;
    let failing = true;
    const { rows, section, usageCalls } = setup(() =>
      failing
        ? new Promise((resolve) => (release = resolve))
        : { status: 200, body: { success: true, history: [entry(1)] } },
    );
    expect((await within(section()).findByRole('status')).textContent).toBe('Loading your credits...');
    release({ status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'Internal error' } });
    const alert = await within(section()).findByRole('alert');
    expect(alert.textContent).toContain('Your credit usage could not be loaded.');
    expect(within(section()).queryByRole('table')).toBeNull();
    // Not an empty history: the empty-state text is not shown with the error.
    expect(screen.queryByText("You haven't used any credit yet.")).toBeNull();
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(section()).queryByRole('alert')).toBeNull();
    expect(usageCalls()).toHaveLength(2);
  });

  it('speaks French: texts, columns, services, dates and numbers, no raw key', async () => {
    await act(() => i18n.changeLanguage('fr'));
    const { rows, section } = setup(
      newestFirst([
        ...Array.from({ length: 11 }, (_, n) => entry(n + 1)),
        entry(12, { serviceType: 'AUDIO_ENHANCEMENT', trackDuration: 1234.4, creditsUsed: 1 }),
      ]),
    );
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(within(section()).getByRole('heading', { name: 'Consommation de crédits' })).toBeTruthy();
    expect(within(section()).getByText('Chaque crédit utilisé, morceau par morceau.')).toBeTruthy();
    expect(
      within(section())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Morceau', 'Service', 'Durée', 'Crédits']);
    expect(cells(rows()[0]!)).toEqual(['12 janv. 2026', 'Song 12.wav', 'Amélioration audio', '20:34', '1']);
    expect(cells(rows()[1]!)[2]).toBe('Mastering IA');
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByRole('button', { name: 'Première' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Page suivante' })).toBeTruthy();
    expect(rawTranslationKeys(section())).toEqual([]);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Rechercher par nom de morceau' }), 'zzz');
    expect(screen.getByText('Aucun morceau ne correspond à votre recherche.')).toBeTruthy();
    expect(rawTranslationKeys(section())).toEqual([]);
  });

  it('speaks French when there is no usage, while loading and on a load error', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await act(() => i18n.changeLanguage('fr'));
    const empty = setup([]);
    await screen.findByText('Vous n’avez encore utilisé aucun crédit.');
    expect(rawTranslationKeys(empty.section())).toEqual([]);
    empty.unmount();
    let release: (answer: { status: number; body?: unknown }) => void = () => undefined;
    const failed = setup(() => new Promise((resolve) => (release = resolve)));
    expect((await within(failed.section()).findByRole('status')).textContent).toBe('Chargement de vos crédits…');
    release({ status: 503, body: { statusCode: 503, code: 'X', message: 'down' } });
    const alert = await within(failed.section()).findByRole('alert');
    expect(alert.textContent).toContain('Impossible de charger votre consommation de crédits.');
    expect(within(alert).getByRole('button', { name: 'Réessayer' })).toBeTruthy();
    expect(rawTranslationKeys(failed.section())).toEqual([]);
  });
});
