import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatList, formatNumber } from '../../../lib/format';
import type { ReferenceMatch } from '@kora/contracts';
import { Chart } from './Chart';
import './reference-match.css';

const NBSP = '\u00a0';

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The report's `referenceMatch` as the view can draw it: three curves on the same bands, two distances. */
function usable(match: ReferenceMatch): boolean {
  const bands = match.bandsHz;
  return (
    Array.isArray(bands) &&
    bands.length > 1 &&
    [match.referenceDb, match.masterDb, match.inputDb].every(
      (levels) => Array.isArray(levels) && levels.length === bands.length,
    ) &&
    finite(match.distanceBeforeDb) &&
    finite(match.distanceAfterDb)
  );
}

/** The band where the distance is measured: the report's, else the engine's 40 Hz-16 kHz. */
const distanceBand = (match: ReferenceMatch): [number, number] =>
  match.distanceBandHz && match.distanceBandHz.every(finite) ? match.distanceBandHz : [40, 16000];

function useFormats() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    /** The bands' nominal names: 31.5 Hz, 1 kHz, 1.25 kHz, 12.5 kHz (12,5 kHz in French). */
    hz: (value: number) =>
      value >= 1000
        ? `${formatNumber(value / 1000, language, 2)}${NBSP}kHz`
        : `${formatNumber(value, language, 1)}${NBSP}Hz`,
    /** One decimal, always shown: 3.0, 0.3. */
    db: (value: number) => formatNumber(value, language, 1, 1),
  };
}

/**
 * The spectral distance to the reference before (the original) and after (the master), said as it came out: closer,
 * no closer (the same to the tenth of a dB), or further.
 */
export function ReferenceDistance({ match }: { match: ReferenceMatch }) {
  const { t } = useTranslation();
  const { hz, db } = useFormats();
  if (!usable(match)) return null;
  const before = db(match.distanceBeforeDb);
  const after = db(match.distanceAfterDb);
  const outcome = before === after ? 'same' : match.closer ? 'closer' : 'further';
  const [low, high] = distanceBand(match);
  return (
    <div className="reference-match">
      <p className={`reference-match__distance reference-match__distance--${outcome}`}>
        {t(`studio:report.referenceMatch.distance.${outcome}`, { before, after })}
      </p>
      <p className="muted reference-match__hint">
        {t('studio:report.referenceMatch.distanceHint', { low: hz(low), high: hz(high) })}
      </p>
    </div>
  );
}

/**
 * A curve held at most 60 dB under its loudest band, as the engine holds it to measure the distance: lower lies
 * below what the ear hears next to it (an input with nothing at 40 Hz is not "80 dB under" a reference there).
 */
function held(levels: Array<number | null>): Array<number | null> {
  const top = Math.max(...levels.filter(finite));
  return levels.map((level) => (finite(level) ? Math.max(level, top - 60) : null));
}

function points(bands: number[], levels: Array<number | null>): Array<[number, number]> {
  const curve = held(levels);
  return bands.flatMap((hz, index) => {
    const level = curve[index];
    return finite(level) && hz > 0 ? [[hz, level] as [number, number]] : [];
  });
}

/**
 * Where the master differs most from the reference, in words (the chart's description): the three widest gaps of
 * the distance's band, or, when none reaches 1 dB, the widest.
 */
function useGaps(match: ReferenceMatch): string {
  const { t, i18n } = useTranslation();
  const { hz, db } = useFormats();
  if (!usable(match)) return '';
  const [low, high] = distanceBand(match);
  const [masterCurve, referenceCurve] = [held(match.masterDb), held(match.referenceDb)];
  const gaps = match.bandsHz
    .map((band, index) => {
      const master = masterCurve[index];
      const reference = referenceCurve[index];
      return finite(master) && finite(reference) && band >= low && band <= high
        ? { band, gap: master - reference }
        : null;
    })
    .filter((gap) => gap !== null)
    .sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap));
  if (gaps.length === 0) return t('studio:report.referenceMatch.noGaps');
  const widest = Math.abs(gaps[0]!.gap);
  if (widest < 1) {
    return t('studio:report.referenceMatch.within', { low: hz(low), high: hz(high), value: db(widest) });
  }
  const items = gaps
    .slice(0, 3)
    .filter(({ gap }) => Math.abs(gap) >= 0.5)
    .map(({ band, gap }) =>
      t(gap > 0 ? 'studio:report.referenceMatch.above' : 'studio:report.referenceMatch.below', {
        band: hz(band),
        value: db(Math.abs(gap)),
      }),
    );
  return t('studio:report.referenceMatch.gaps', { list: formatList(items, i18n.language) });
}

/**
 * The reference's, the master's and (lighter) the original's 1/3-octave curves on a log-frequency axis; described
 * in words for screen readers (the widest gaps) and given band by band in a table under a disclosure.
 */
export function ReferenceChart({
  match,
  masterLabel,
  inputLabel,
}: {
  match: ReferenceMatch;
  masterLabel: string;
  inputLabel: string;
}) {
  const { t } = useTranslation();
  const { hz, db } = useFormats();
  const descriptionId = useId();
  const gaps = useGaps(match);
  if (!usable(match)) return null;
  const referenceLabel = t('studio:report.referenceMatch.reference');
  const level = (value: number | null | undefined) =>
    finite(value) ? (
      db(value)
    ) : (
      <>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">{t('studio:report.referenceMatch.noSignal')}</span>
      </>
    );
  return (
    <div className="reference-match reference-match--chart">
      <Chart
        label={t('studio:report.referenceMatch.chart')}
        yUnit={t('studio:report.referenceMatch.unit')}
        xLog
        xTicks={[100, 1000, 10000].map((value) => [value, hz(value)])}
        describedBy={descriptionId}
        xDomain={[match.bandsHz[0]!, match.bandsHz[match.bandsHz.length - 1]!]}
        series={[
          {
            name: inputLabel,
            className: 'chart__line--input',
            points: points(match.bandsHz, match.inputDb),
          },
          {
            name: referenceLabel,
            className: 'chart__line--reference',
            points: points(match.bandsHz, match.referenceDb),
          },
          {
            name: masterLabel,
            className: 'chart__line--after',
            points: points(match.bandsHz, match.masterDb),
          },
        ]}
      />
      <p id={descriptionId} className="muted reference-match__gaps">
        {gaps}
      </p>
      <details className="reference-match__values">
        <summary>{t('studio:report.referenceMatch.values')}</summary>
        <table className="report__table reference-match__table">
          <caption>{t('studio:report.referenceMatch.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('studio:report.referenceMatch.band')}</th>
              <th scope="col">{referenceLabel}</th>
              <th scope="col">{masterLabel}</th>
              <th scope="col">{inputLabel}</th>
            </tr>
          </thead>
          <tbody>
            {match.bandsHz.map((band, index) => (
              <tr key={band}>
                <th scope="row">{hz(band)}</th>
                <td>{level(match.referenceDb[index])}</td>
                <td>{level(match.masterDb[index])}</td>
                <td>{level(match.inputDb[index])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
