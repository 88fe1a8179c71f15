import { lazy } from 'react';

// The processing and result views load on use, with their players (wavesurfer comes later still, with the first
// waveform), the report's charts, the A/B switch, the stems board and the video result: none of them is needed for
// the first paint of home or the dashboard, whose JavaScript stays within its budget (docs/benchmarks.md, "Web
// client"). While a job is processing, the result view's chunk is fetched, so the result shows without a wait.
const loadResultView = () => import('./ResultView');

export const ProcessingView = lazy(async () => {
  void loadResultView();
  return { default: (await import('./ProcessingView')).ProcessingView };
});

export const ResultView = lazy(async () => ({ default: (await loadResultView()).ResultView }));

// A failed job's message reads the error-code table, which the first paint does not need either.
export const FailedJob = lazy(async () => ({ default: (await import('./FailedJob')).FailedJob }));
