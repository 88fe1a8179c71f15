import { act, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { EngineReport } from '@kora/contracts';
import { loudnessFacts } from '../../../test/fakes';
import { ReportView } from './ReportView';

/** A reference master as the engine reports it when the reference is louder than the ceiling allows. */
const SHORT: EngineReport = {
  settings: { targetLufs: -7, targetSource: 'reference', reference: 'their-hit.wav', ceilingDbtp: -1 },
  loudnessTarget: { requestedLufs: -7.004, achievedLufs: -8.227, reached: false, limitedBy: 'true-peak-ceiling' },
  before: loudnessFacts(-22.3, -8),
  after: loudnessFacts(-8.227, -1.25),
};

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('ReportView loudness target', () => {
  it('explains a speech result by the spoken word’s -16 LUFS, not by music’s -14', () => {
    const speech: EngineReport = {
      settings: { targetLufs: -16, chain: 'voice', preset: 'audio', ceilingDbtp: -1 },
      before: loudnessFacts(-31, -12),
      after: loudnessFacts(-16, -1.5),
    };
    const { unmount } = render(<ReportView report={speech} resultLabel="Enhanced" />);
    const hint = document.querySelector('.report__hint')!.textContent!;
    expect(hint).toContain('−16 LUFS');
    expect(hint).not.toContain('−14');
    unmount();
    render(
      <ReportView report={{ ...speech, settings: { ...speech.settings, chain: 'music' } }} resultLabel="Enhanced" />,
    );
    expect(document.querySelector('.report__hint')!.textContent).toContain('music at about −14 LUFS');
  });

  it('says where the target came from and, when the master falls short, what it reached and why', () => {
    render(<ReportView report={SHORT} resultLabel="Master" />);
    expect(screen.getByText(/^Loudness target/).textContent).toBe(
      'Loudness target: -7 LUFS, the level of your reference track',
    );
    expect(screen.getByText(/^This master reaches/).textContent).toBe(
      'This master reaches -8.2 LUFS, not -7: any louder and its peaks would pass the -1 dBTP ceiling that keeps it clean once streamed.',
    );
  });

  it('in French too, and says nothing more when the target was reached', async () => {
    await act(() => i18n.changeLanguage('fr'));
    const { unmount } = render(
      <ReportView
        report={{ ...SHORT, loudnessTarget: { ...SHORT.loudnessTarget!, limitedBy: 'max-limiting' } }}
        resultLabel="Master"
      />,
    );
    expect(screen.getByText(/^Ce master atteint/).textContent).toBe(
      'Ce master atteint -8,2\u00a0LUFS et non -7\u00a0: aller plus fort demanderait tant de limitation que la dynamique serait écrasée.',
    );
    unmount();
    render(
      <ReportView
        report={{
          ...SHORT,
          loudnessTarget: { requestedLufs: -12, achievedLufs: -12.01, reached: true, limitedBy: null },
        }}
        resultLabel="Master"
      />,
    );
    expect(screen.queryByText(/^Ce master atteint/)).toBeNull();
  });
});
