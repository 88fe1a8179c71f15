import { useTranslation } from 'react-i18next';
import type { MixerDecisions } from '@kora/contracts';

/** Signed decibels, one decimal, in the interface's language ("+2.5 dB", "−3,1 dB"). */
function useDecibels() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'fr-FR', {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
  const plain = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'fr-FR', { maximumFractionDigits: 1 });
  const kilo = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'fr-FR', { maximumFractionDigits: 2 });
  return {
    db: (value: number) => format.format(value),
    number: (value: number) => plain.format(value),
    /** "250 Hz", "3.15 kHz" ("3,15 kHz" in French): the third-octave bands' nominal names. */
    frequency: (hz: number, t: (key: string, options: Record<string, string>) => string) =>
      hz < 1000
        ? t('report.hz', { value: plain.format(Math.round(hz)) })
        : t('report.khz', { value: kilo.format(Math.round(hz / 10) / 100) }),
  };
}

type EqBand = MixerDecisions['eq'][number];
const PURPOSES = new Set([
  'rumble',
  'presence',
  'air',
  'behind-lead',
  'definition',
  'boxiness',
  'click',
  'body',
  'vocal-room',
  'mud',
  'harshness',
  'boominess',
  'masking',
]);
const SHAPES = new Set(['peaking', 'highShelf', 'lowShelf']);

/**
 * One EQ move in words: "Cut 3 dB around 3.15 kHz to tame harshness". Moves without a known purpose (reports from
 * before the engine gave one) keep the plain "Cut -3.0 dB at 3150 Hz".
 */
function useEqText() {
  const { t } = useTranslation('mixing');
  const { db, number, frequency } = useDecibels();
  return (band: EqBand): string => {
    const purpose = band.purpose && PURPOSES.has(band.purpose) ? band.purpose : null;
    if (!purpose || (band.type !== 'highpass' && !SHAPES.has(band.type))) {
      return band.type === 'highpass'
        ? t('report.highpass', { freq: number(band.freqHz) })
        : t(band.gainDb < 0 ? 'report.eqCut' : 'report.eqBoost', { gain: db(band.gainDb), freq: number(band.freqHz) });
    }
    const freq = frequency(band.freqHz, t);
    const why = t(`report.purposes.${purpose}`, { track: band.maskedBy ?? '' });
    if (band.type === 'highpass') return t('report.highpassFor', { freq, purpose: why });
    return t(`report.eqMove.${band.gainDb < 0 ? 'cut' : 'boost'}.${band.type}`, {
      gain: number(Math.abs(band.gainDb)),
      freq,
      purpose: why,
    });
  };
}

/** What the mixer decided for one track (the engine's report): gain, EQ, compression, pan, reverb. */
export function MixerReport({ decisions, name }: { decisions: MixerDecisions; name: string }) {
  const { t } = useTranslation('mixing');
  const { db, number } = useDecibels();
  const eqText = useEqText();
  const pan = decisions.pan.position;
  const side = Math.round(Math.abs(pan) * 100);
  const panText =
    side === 0 ? t('report.panCentre') : t(pan < 0 ? 'report.panLeft' : 'report.panRight', { percent: side });
  return (
    <details className="mix-report">
      <summary aria-label={t('report.summaryFor', { name })}>{t('report.summary')}</summary>
      <dl className="mix-report__list">
        <div>
          <dt>{t('report.gain')}</dt>
          <dd>{t('report.db', { value: db(decisions.gainDb) })}</dd>
        </div>
        <div>
          <dt>{t('report.eq')}</dt>
          <dd>
            {decisions.eq.length === 0 ? (
              t('report.eqNone')
            ) : (
              <ul>
                {decisions.eq.map((band, index) => (
                  <li key={index}>{eqText(band)}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('report.compression')}</dt>
          <dd>
            {decisions.compression
              ? t('report.compressionValue', {
                  ratio: number(decisions.compression.ratio),
                  reduction: number(decisions.compression.meanReductionDb),
                })
              : t('report.compressionNone')}
          </dd>
        </div>
        <div>
          <dt>{t('report.pan')}</dt>
          <dd>{panText}</dd>
        </div>
        <div>
          <dt>{t('report.reverb')}</dt>
          <dd>
            {decisions.reverbSendDb === null
              ? t('report.reverbNone')
              : t('report.reverbSend', { value: db(decisions.reverbSendDb) })}
          </dd>
        </div>
      </dl>
    </details>
  );
}
