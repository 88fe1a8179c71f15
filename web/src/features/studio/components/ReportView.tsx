import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import type { EngineReport, LoudnessFacts } from '@kora/contracts';
import { Chart } from './Chart';
import { ReferenceChart, ReferenceDistance } from './ReferenceMatch';

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const curve = (facts: LoudnessFacts | undefined): Array<[number, number]> =>
  (facts?.shortTermCurveLufs ?? []).flatMap((value, index) =>
    finite(value) && value > -70 ? [[index + 3, value]] : [],
  );

const spectrum = (facts: LoudnessFacts | undefined): Array<[number, number]> => {
  const bands = facts?.spectrum?.bandsHz ?? [];
  const levels = facts?.spectrum?.levelsDb ?? [];
  return bands.flatMap((hz, index) => {
    const level = levels[index];
    return finite(level) && hz >= 20 ? [[hz, level]] : [];
  });
};

/** The spectrum down to 60 dB under its loudest band: what lies below is inaudible next to it. */
const audible = (...sets: Array<Array<[number, number]>>): Array<Array<[number, number]>> => {
  const top = Math.max(...sets.flat().map(([, level]) => level));
  return sets.map((set) => set.map(([hz, level]): [number, number] => [hz, Math.max(level, top - 60)]));
};

/** The enhancement chains for the spoken word, which is levelled to -16 LUFS, not to music's -14. */
const SPEECH_CHAINS = new Set(['voice', 'podcast']);

const SHORTFALL_REASONS = new Set(['true-peak-ceiling', 'max-limiting', 'target-range']);

/**
 * When the master fell short of the loudness asked for: the figure it reached and why (the true-peak ceiling, the
 * limiting that would flatten the dynamics, the -6 LUFS top of the target range); null when it was reached.
 */
function useShortfall(report: EngineReport): string | null {
  const { t, i18n } = useTranslation();
  const outcome = report.loudnessTarget;
  if (!outcome || outcome.reached !== false) return null;
  const { requestedLufs, achievedLufs, limitedBy } = outcome;
  if (!finite(requestedLufs) || !finite(achievedLufs)) return null;
  const reason = limitedBy && SHORTFALL_REASONS.has(limitedBy) ? limitedBy : 'other';
  return t(`studio:report.shortOf.${reason}`, {
    requested: formatNumber(requestedLufs, i18n.language, 1),
    achieved: formatNumber(achievedLufs, i18n.language, 1),
    ceiling: formatNumber(report.settings?.ceilingDbtp ?? -1, i18n.language, 1),
  });
}

/**
 * The engine's report as a person reads it: loudness and peaks before and after, the curve, the spectrum; for a
 * master made against a reference track, the distance to it before and after and the three tonal curves.
 */
export function ReportView({ report, resultLabel }: { report: EngineReport; resultLabel: string }) {
  const { t, i18n } = useTranslation();
  const number = (value: number | null | undefined, unit: string) =>
    finite(value) && value > -70 ? `${formatNumber(value, i18n.language, 1)} ${unit}` : t('studio:report.silent');
  const rows: Array<[string, number | null | undefined, number | null | undefined, string]> = [
    [t('studio:report.loudness'), report.before?.integratedLufs, report.after?.integratedLufs, 'LUFS'],
    [t('studio:report.truePeak'), report.before?.truePeakDbtp, report.after?.truePeakDbtp, 'dBTP'],
    [t('studio:report.range'), report.before?.loudnessRangeLu, report.after?.loudnessRangeLu, 'LU'],
  ];
  const lufs = (value: number) => formatNumber(value, i18n.language, 1);
  const shortfall = useShortfall(report);
  const names = { before: t('studio:report.before'), after: resultLabel };
  const spectra = audible(spectrum(report.before), spectrum(report.after));
  const seconds = Math.max(curve(report.before).length, curve(report.after).length);
  const timeTicks: Array<[number, string]> = [0.25, 0.5, 0.75].map((share) => {
    const at = Math.round(3 + share * seconds);
    return [at, `${at} s`];
  });
  return (
    <section className="report" aria-labelledby="report-title">
      <h3 id="report-title">{t('studio:report.title')}</h3>
      {report.settings?.reference && <p className="muted">{t('studio:report.matchedReference')}</p>}
      {finite(report.settings?.targetLufs) && (
        <p className="muted">
          {t(
            report.settings?.targetSource === 'reference'
              ? 'studio:report.targetFromReference'
              : 'studio:report.target',
            {
              lufs: lufs(report.settings!.targetLufs!),
            },
          )}
        </p>
      )}
      {shortfall && <p className="report__shortfall">{shortfall}</p>}
      {report.referenceMatch && <ReferenceDistance match={report.referenceMatch} />}
      <div className="table-scroll">
        <table className="report__table">
          <thead>
            <tr>
              <th scope="col">{t('studio:report.measure')}</th>
              <th scope="col">{names.before}</th>
              <th scope="col">{names.after}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, before, after, unit]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{number(before, unit)}</td>
                <td>{number(after, unit)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted report__hint">
        {t(SPEECH_CHAINS.has(report.settings?.chain ?? '') ? 'studio:report.hintSpeech' : 'studio:report.hint')}
      </p>
      <Chart
        label={t('studio:report.curve')}
        yUnit="LUFS"
        xLog={false}
        xTicks={timeTicks}
        series={[
          { name: names.before, className: 'chart__line--before', points: curve(report.before) },
          { name: names.after, className: 'chart__line--after', points: curve(report.after) },
        ]}
      />
      <Chart
        label={t('studio:report.spectrum')}
        yUnit="dB"
        xLog
        xTicks={[
          [100, '100 Hz'],
          [1000, '1 kHz'],
          [10000, '10 kHz'],
        ]}
        series={[
          { name: names.before, className: 'chart__line--before', points: spectra[0]! },
          { name: names.after, className: 'chart__line--after', points: spectra[1]! },
        ]}
      />
      {report.referenceMatch && (
        <ReferenceChart match={report.referenceMatch} masterLabel={names.after} inputLabel={names.before} />
      )}
    </section>
  );
}
