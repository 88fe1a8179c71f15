import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { EngineReport, ReferenceMatch } from '@kora/contracts';
import { loudnessFacts } from '../../../test/fakes';
import { ReportView } from './ReportView';

/**
 * The `referenceMatch` of a real engine run (the engine's master on a 12 s synthetic band against the same kind of
 * band 6 dB brighter above 4 kHz, as in `modules/audio-engine/test/master.spec.ts`), cut to the fields the view reads.
 */
const MATCH: ReferenceMatch = {
  method: 'third-octave filter bank',
  bandsHz: [
    25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150,
    4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000,
  ],
  referenceDb: [
    -25.18,
    -19.12,
    -6.13,
    -6.66,
    -8.87,
    -10.67,
    -10.61,
    -13.42,
    -16.85,
    -15.69,
    -18.18,
    -20.1,
    -22.24,
    -20.63,
    -19.27,
    -20.11,
    -24.57,
    -27.99,
    -27.68,
    -29.7,
    -30.05,
    -28.39,
    -27.24,
    -26.11,
    -25.03,
    -24.99,
    -24.85,
    -24.7,
    -24.22,
    null,
  ],
  inputDb: [
    -24.8,
    -18.69,
    -5.76,
    -6.27,
    -8.49,
    -10.3,
    -10.25,
    -13.01,
    -16.54,
    -15.34,
    -17.84,
    -19.7,
    -23.97,
    -25.85,
    -16.92,
    -18.25,
    -28.93,
    -25.99,
    -26.81,
    -30.58,
    -29.77,
    -29.79,
    -29.76,
    -29.77,
    -30.25,
    -30.36,
    -30.5,
    -30.42,
    -29.66,
    null,
  ],
  masterDb: [
    -25.39,
    -19.16,
    -6.11,
    -6.6,
    -8.83,
    -10.63,
    -10.58,
    -13.36,
    -16.83,
    -15.67,
    -18.18,
    -20.05,
    -21.89,
    -20.94,
    -18.57,
    -19.81,
    -25.24,
    -27.36,
    -27.69,
    -29.75,
    -29.87,
    -28.33,
    -27.04,
    -25.81,
    -24.72,
    -24.54,
    -24.38,
    -24.41,
    -24.76,
    null,
  ],
  distanceBandHz: [40, 16000],
  distanceBeforeDb: 2.965,
  distanceAfterDb: 0.319,
  closer: true,
};

const report = (referenceMatch: ReferenceMatch | null | undefined): EngineReport => ({
  settings: { targetLufs: -10, targetSource: 'reference', reference: 'their-hit.wav', ceilingDbtp: -1 },
  before: loudnessFacts(-20.1, -6),
  after: loudnessFacts(-10, -1.2),
  referenceMatch,
});

/** A master whose curve stayed the input's: the engine would find it exactly as far from the reference. */
const UNCHANGED: ReferenceMatch = { ...MATCH, masterDb: MATCH.inputDb, distanceAfterDb: MATCH.distanceBeforeDb };

const chart = (name: string) => screen.getByRole('img', { name });
const normalise = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('ReportView, mastering against a reference track', () => {
  it('states the distance to the reference before and after, and draws the three curves with a description', () => {
    render(<ReportView report={report(MATCH)} resultLabel="Mastered" />);
    expect(normalise(screen.getByText(/^Distance to your reference/).textContent)).toBe(
      'Distance to your reference: 3.0 dB → 0.3 dB. The master is closer to its tonal balance than your original.',
    );
    expect(normalise(screen.getByText(/^The distance is/).textContent)).toContain('from 40 Hz to 16 kHz');

    const svg = chart('Tonal balance against your reference');
    // Described in words for a screen reader: here the master follows the reference within 0.7 dB (630 Hz).
    const description = document.getElementById(svg.getAttribute('aria-describedby')!);
    expect(normalise(description?.textContent)).toBe(
      'From 40 Hz to 16 kHz, the master stays within 0.7 dB of your reference in every band.',
    );
    // The original lighter under the reference and the master; the 20 kHz band without signal is left out.
    const paths = [...svg.querySelectorAll('path')];
    expect(paths.map((p) => p.getAttribute('class'))).toEqual([
      'chart__line chart__line--input',
      'chart__line chart__line--reference',
      'chart__line chart__line--after',
    ]);
    for (const p of paths) expect(p.getAttribute('d')!.match(/[ML]/g)).toHaveLength(29);
    const figure = svg.closest('figure')!;
    expect(within(figure).getByText('Reference')).toBeTruthy();
    expect(within(figure).getByText('Mastered')).toBeTruthy();
    expect(within(figure).getByText('Original')).toBeTruthy();
    expect(normalise(figure.querySelector('.chart__x')!.textContent)).toBe('100 Hz1 kHz10 kHz');
  });

  it('gives every band’s levels in a table under a disclosure', async () => {
    const user = userEvent.setup();
    render(<ReportView report={report(MATCH)} resultLabel="Mastered" />);
    await user.click(screen.getByText('Band-by-band values'));
    const table = screen.getByRole('table', { name: /^Level of each third-octave band/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Band', 'Reference', 'Mastered', 'Original']);
    const row = (band: string) =>
      rows.find((r) => normalise(within(r).queryByRole('rowheader')?.textContent) === band)!;
    expect(
      within(row('12.5 kHz'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['-24.7', '-24.4', '-30.4']);
    expect(within(row('31.5 Hz')).getAllByRole('cell')[0]!.textContent).toBe('-19.1');
    // The bands by their nominal names: 1.25 kHz, not 1.3.
    expect(within(row('1.25 kHz')).getAllByRole('cell')[1]!.textContent).toBe('-27.4');
    expect(within(row('20 kHz')).getAllByRole('cell')[1]!.textContent).toBe('–no signal');
  });

  it('says so when the master came no closer, or ended further, and names the widest gaps', () => {
    const { unmount } = render(<ReportView report={report(UNCHANGED)} resultLabel="Mastered" />);
    expect(normalise(screen.getByText(/^Distance to your reference/).textContent)).toBe(
      'Distance to your reference: 3.0 dB → 3.0 dB. The master is no closer to its tonal balance than your original.',
    );
    const svg = chart('Tonal balance against your reference');
    expect(normalise(document.getElementById(svg.getAttribute('aria-describedby')!)?.textContent)).toBe(
      'Where the master differs most from your reference: 12.5 kHz (5.7 dB below), 10 kHz (5.6 dB below), and 16 kHz (5.4 dB below).',
    );
    unmount();
    render(
      <ReportView report={report({ ...UNCHANGED, distanceAfterDb: 3.4, closer: false })} resultLabel="Mastered" />,
    );
    expect(normalise(screen.getByText(/^Distance to your reference/).textContent)).toBe(
      'Distance to your reference: 3.0 dB → 3.4 dB. The master ended up further from its tonal balance than your original.',
    );
  });

  it('holds each curve at most 60 dB under its loudest band, as the engine does for the distance', () => {
    // A master with nothing at 40-63 Hz (its loudest band is then 100 Hz, at -10.58): it reads 60 dB under that.
    const masterDb = MATCH.masterDb.map((level, index) =>
      [40, 50, 63].includes(MATCH.bandsHz[index]!) ? -120 : level,
    );
    render(<ReportView report={report({ ...MATCH, masterDb })} resultLabel="Mastered" />);
    const svg = chart('Tonal balance against your reference');
    expect(normalise(document.getElementById(svg.getAttribute('aria-describedby')!)?.textContent)).toBe(
      'Where the master differs most from your reference: 40 Hz (64.5 dB below), 50 Hz (63.9 dB below), and 63 Hz (61.7 dB below).',
    );
  });

  it('in French, with French numbers', async () => {
    await act(() => i18n.changeLanguage('fr'));
    const { unmount } = render(<ReportView report={report(MATCH)} resultLabel="Masterisé" />);
    expect(screen.getByText(/^Écart avec votre référence/).textContent).toBe(
      'Écart avec votre référence\u00a0: 3,0\u00a0dB → 0,3\u00a0dB. Le master est plus proche de son équilibre tonal que votre original.',
    );
    const svg = chart('Équilibre tonal face à votre référence');
    expect(normalise(document.getElementById(svg.getAttribute('aria-describedby')!)?.textContent)).toBe(
      'De 40 Hz à 16 kHz, le master ne s’écarte nulle part de plus de 0,7 dB de votre référence.',
    );
    expect(screen.getByText('Valeurs bande par bande')).toBeTruthy();
    const table = screen.getByRole('table', { name: /^Niveau de chaque bande de tiers d’octave/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Bande', 'Référence', 'Masterisé', 'Original']);
    unmount();
    render(
      <ReportView report={report({ ...UNCHANGED, distanceAfterDb: 3.4, closer: false })} resultLabel="Masterisé" />,
    );
    expect(normalise(screen.getByText(/^Écart avec votre référence/).textContent)).toBe(
      'Écart avec votre référence : 3,0 dB → 3,4 dB. Le master est finalement plus éloigné de son équilibre tonal que votre original.',
    );
    expect(
      normalise(
        document.getElementById(chart('Équilibre tonal face à votre référence').getAttribute('aria-describedby')!)
          ?.textContent,
      ),
    ).toBe(
      'Là où le master s’écarte le plus de votre référence : 12,5 kHz (5,7 dB en dessous), 10 kHz (5,6 dB en dessous) et 16 kHz (5,4 dB en dessous).',
    );
  });

  it('shows none of it without a reference (null, or an older report without the field)', async () => {
    for (const language of ['en', 'fr']) {
      await act(() => i18n.changeLanguage(language));
      for (const match of [null, undefined]) {
        const { unmount } = render(<ReportView report={report(match)} resultLabel="Mastered" />);
        expect(
          screen.getByRole('heading', { name: language === 'en' ? 'What changed' : 'Ce qui a changé' }),
        ).toBeTruthy();
        expect(screen.queryByText(/^(Distance to your reference|Écart avec votre référence)/)).toBeNull();
        expect(screen.queryByRole('img', { name: /reference|référence/ })).toBeNull();
        expect(screen.queryByRole('table', { name: /third-octave|tiers d’octave/ })).toBeNull();
        expect(document.querySelector('.reference-match')).toBeNull();
        unmount();
      }
    }
  });
});
