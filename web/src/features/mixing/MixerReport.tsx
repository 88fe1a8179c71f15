import { useTranslation } from 'react-i18next';
import type { MixerDecisions } from './api';

/** Signed decibels, one decimal, in the interface's language ("+2.5 dB", "−3,1 dB"). */
function useDecibels() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'fr-FR', {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
  const plain = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'fr-FR', { maximumFractionDigits: 1 });
  return { db: (value: number) => format.format(value), number: (value: number) => plain.format(value) };
}

/** What the mixer decided for one track (the engine's report): gain, EQ, compression, pan, reverb. */
export function MixerReport({ decisions, name }: { decisions: MixerDecisions; name: string }) {
  const { t } = useTranslation('mixing');
  const { db, number } = useDecibels();
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
                  <li key={index}>
                    {band.type === 'highpass'
                      ? t('report.highpass', { freq: number(band.freqHz) })
                      : t(band.gainDb < 0 ? 'report.eqCut' : 'report.eqBoost', {
                          gain: db(band.gainDb),
                          freq: number(band.freqHz),
                        })}
                  </li>
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
