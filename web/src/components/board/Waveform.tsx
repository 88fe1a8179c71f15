import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { barScale } from './peaks';

/** The spec's waveform (§9): 60 px high, bars 2 px wide, 1 px apart, 2 px radius. */
export const WAVEFORM = { height: 60, barWidth: 2, barGap: 1, barRadius: 2 } as const;

export interface WaveformHandle {
  /** Moves the cursor (the board's clock drives it; the waveform plays nothing itself). */
  setTime(seconds: number): void;
}

interface WaveformProps {
  peaks: Float32Array[];
  duration: number;
  colour: string;
  /** Where the user clicked or dragged, in seconds. */
  onSeek(seconds: number): void;
  ref?: Ref<WaveformHandle>;
}

/**
 * A row's waveform drawn by wavesurfer.js from peaks computed once from the decoded audio: wavesurfer only draws and
 * reports clicks, so every row follows the same clock. The played part is in the row's colour, the rest paler.
 * Pointer-only: the board's position slider and skip buttons do the same from the keyboard.
 */
export function Waveform({ peaks, duration, colour, onSeek, ref }: WaveformProps) {
  const container = useRef<HTMLDivElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const seek = useRef(onSeek);
  seek.current = onSeek;

  /** The cursor's place, kept for a waveform still loading. */
  const time = useRef(0);

  useImperativeHandle(
    ref,
    () => ({
      setTime: (seconds) => {
        time.current = seconds;
        surfer.current?.setTime(seconds);
      },
    }),
    [],
  );

  useEffect(() => {
    const element = container.current;
    if (!element || duration <= 0) return;
    let instance: WaveSurfer | null = null;
    let cancelled = false;
    // wavesurfer.js comes with the first waveform, not with the page.
    void import('wavesurfer.js').then(({ default: WaveSurferClass }) => {
      if (cancelled) return;
      instance = WaveSurferClass.create({
        container: element,
        ...WAVEFORM,
        barHeight: barScale(peaks),
        peaks,
        duration,
        waveColor: `${colour}80`,
        progressColor: colour,
        cursorColor: colour,
        cursorWidth: 2,
        interact: true,
        dragToSeek: true,
        hideScrollbar: true,
      });
      instance.on('interaction', (seconds) => seek.current(seconds));
      if (time.current > 0) instance.setTime(time.current);
      surfer.current = instance;
    });
    return () => {
      cancelled = true;
      instance?.destroy();
      surfer.current = null;
    };
  }, [peaks, duration, colour]);

  return <div ref={container} className="stem-waveform" aria-hidden="true" />;
}
