/**
 * The page the browser test (`web/e2e/stems.test.mjs`) builds with Vite and opens in Chromium: the stems boards and
 * the video result with the app's stylesheet, fed by the test's server from `/config.json`, so the real Web Audio,
 * wavesurfer, JSZip and media elements run against real files. Not part of the app's bundle.
 */
import i18n from 'i18next';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import common from '../../../../locales/en/common.json';
import en from '../../../../locales/en/stems.json';
import '../../../../styles.css';
import { VideoResult, type VideoResultProps } from '../../components/VideoResult';
import { StemsBoard, type StemsBoardProps } from '../../components/StemsBoard';

type BoardConfig = Omit<StemsBoardProps, 'fetchAudio' | 'onPlay' | 'pauseSignal'>;
interface Config {
  boards: BoardConfig[];
  /** Left out by a page that has only boards (the test of what the board plays). */
  video?: Omit<VideoResultProps, 'fetchMedia' | 'onPlay' | 'pauseSignal'>;
}

async function fetchMedia(url: string): Promise<Blob> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.blob();
}

/** One player at a time: starting one moves the pause signal of every other. */
function Harness({ config }: { config: Config }) {
  const [signals, setSignals] = useState<Record<string, number>>({});
  const started = (who: string) =>
    setSignals((current) => {
      const next: Record<string, number> = {};
      for (const id of [...config.boards.map((board) => board.trackId), 'video']) {
        next[id] = (current[id] ?? 0) + (id === who ? 0 : 1);
      }
      return next;
    });
  return (
    <main className="main">
      <h1>Stems</h1>
      {config.boards.map((board) => (
        <StemsBoard
          key={board.trackId}
          {...board}
          fetchAudio={fetchMedia}
          onPlay={() => started(board.trackId)}
          pauseSignal={signals[board.trackId] ?? 0}
        />
      ))}
      {config.video && (
        <VideoResult
          {...config.video}
          fetchMedia={fetchMedia}
          onPlay={() => started('video')}
          pauseSignal={signals.video ?? 0}
        />
      )}
    </main>
  );
}

// The page's query picks the test's configuration (`?signals`: the board of known test signals).
const config = (await (await fetch(`/config.json${window.location.search}`)).json()) as Config;
await i18n.use(initReactI18next).init({
  // The board's rows read the shared `board.row.*` texts from `common`.
  resources: { en: { stems: en, common } },
  lng: 'en',
  ns: ['stems', 'common'],
  defaultNS: 'stems',
  interpolation: { escapeValue: false },
});
const root = document.getElementById('root');
if (root) createRoot(root).render(<Harness config={config} />);
