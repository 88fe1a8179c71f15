/**
 * One media element plays at a time across the studio (spec §2: players, video and stems alike): every element
 * registers here, and when one starts the one playing before is paused, whoever started it (a button, the
 * waveform, the keyboard, the browser's own controls).
 */
type Listener = (playing: HTMLMediaElement | null) => void;

let current: HTMLMediaElement | null = null;
const listeners = new Set<Listener>();

function announce(): void {
  for (const listener of listeners) listener(current);
}

/** Marks `element` as the one playing, pausing the previous one. */
export function claim(element: HTMLMediaElement): void {
  if (current && current !== element && !current.paused) current.pause();
  current = element;
  announce();
}

/** Follows an element's own play and pause events; returns the function that stops following it. */
export function register(element: HTMLMediaElement): () => void {
  const onPlay = () => claim(element);
  const onStop = () => {
    if (current === element) {
      current = null;
      announce();
    }
  };
  element.addEventListener('play', onPlay);
  element.addEventListener('pause', onStop);
  element.addEventListener('ended', onStop);
  return () => {
    element.removeEventListener('play', onPlay);
    element.removeEventListener('pause', onStop);
    element.removeEventListener('ended', onStop);
    if (current === element) {
      if (!element.paused) element.pause();
      current = null;
      announce();
    }
  };
}

export function nowPlaying(): HTMLMediaElement | null {
  return current;
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Pauses whichever element plays (a player outside this store, like the stems board's Web Audio, starts). */
export function pauseCurrent(): void {
  if (current && !current.paused) current.pause();
}
