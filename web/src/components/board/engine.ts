/**
 * The board's player: every row decoded into one AudioContext and started on the same clock tick at the same offset,
 * so stems stay sample-aligned however long they play (separate media elements drift and need re-seeking). The
 * position is the context's clock minus the moment playback started; seeking restarts every source together.
 * The price is memory: decoded audio is held as 32-bit floats, about 21 MB per stereo minute at 44.1 kHz and row
 * (30 s previews: 10 MB a row; a 5-minute song unlocked with 5 rows: about 0.5 GB). A row that cannot be decoded
 * (out of memory included) fails alone and says so.
 */

/** The part of an AudioContext the engine uses (a real one in the browser, a fake in tests). */
export type AudioContextLike = Pick<
  AudioContext,
  'currentTime' | 'state' | 'destination' | 'resume' | 'close' | 'decodeAudioData' | 'createGain' | 'createBufferSource'
>;

interface Voice {
  buffer: AudioBuffer;
  gain: GainNode;
  level: number;
  source: AudioBufferSourceNode | null;
}

/** How far ahead of "now" the sources are scheduled, so they all get the same start tick. */
export const START_LEAD_SECONDS = 0.03;
/** Gain changes glide over about this time constant instead of clicking. */
const GAIN_GLIDE_SECONDS = 0.01;

export class StemsEngine {
  private readonly voices = new Map<string, Voice>();
  /** The position when paused, or the position playback started from. */
  private offset = 0;
  /** The context time at which position 0 would have played (`when - offset`). */
  private anchor = 0;
  private playing = false;
  /** Bumped by every start and stop, so a source's `ended` from an older run is ignored. */
  private run = 0;
  private disposed = false;

  /** Called when playback reaches the end of the longest row. */
  onEnded: (() => void) | null = null;

  constructor(private readonly context: AudioContextLike) {}

  /** Decodes a row's audio and connects it; a row already there is replaced. */
  async add(id: string, data: ArrayBuffer, level = 1): Promise<AudioBuffer> {
    const buffer = await this.context.decodeAudioData(data);
    if (this.disposed) return buffer;
    this.remove(id);
    const gain = this.context.createGain();
    gain.gain.value = level;
    gain.connect(this.context.destination);
    const voice: Voice = { buffer, gain, level, source: null };
    this.voices.set(id, voice);
    if (this.playing) this.startVoice(voice, this.currentTime(), this.context.currentTime);
    return buffer;
  }

  remove(id: string): void {
    const voice = this.voices.get(id);
    if (!voice) return;
    this.stopVoice(voice);
    voice.gain.disconnect();
    this.voices.delete(id);
  }

  has(id: string): boolean {
    return this.voices.has(id);
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  /** The longest row's length in seconds. */
  get duration(): number {
    let longest = 0;
    for (const voice of this.voices.values()) longest = Math.max(longest, voice.buffer.duration);
    return longest;
  }

  /** The shared position in seconds. */
  currentTime(): number {
    if (!this.playing) return this.offset;
    return Math.min(this.duration, Math.max(this.offset, this.context.currentTime - this.anchor));
  }

  /** A row's gain (0 when muted, else its volume). */
  setLevel(id: string, level: number): void {
    const voice = this.voices.get(id);
    if (!voice || voice.level === level) return;
    voice.level = level;
    voice.gain.gain.setTargetAtTime(level, this.context.currentTime, GAIN_GLIDE_SECONDS);
  }

  async play(): Promise<void> {
    if (this.disposed || this.playing || this.voices.size === 0) return;
    if (this.context.state === 'suspended') await this.context.resume();
    if (this.disposed || this.playing) return;
    if (this.offset >= this.duration - 0.01) this.offset = 0;
    this.startAll(this.offset);
  }

  pause(): void {
    if (!this.playing) return;
    this.offset = this.currentTime();
    this.stopAll();
  }

  /** Moves every row to the same position (clamped to the board), playing on if it was playing. */
  seek(time: number): void {
    const target = Math.min(this.duration, Math.max(0, Number.isFinite(time) ? time : 0));
    if (this.playing) {
      this.stopAll();
      this.startAll(target);
    } else {
      this.offset = target;
    }
  }

  skip(seconds: number): void {
    this.seek(this.currentTime() + seconds);
  }

  dispose(): void {
    if (this.disposed) return;
    this.stopAll();
    for (const id of [...this.voices.keys()]) this.remove(id);
    this.disposed = true;
    this.onEnded = null;
    void this.context.close().catch(() => undefined);
  }

  private startAll(offset: number): void {
    this.run += 1;
    const run = this.run;
    const when = this.context.currentTime + START_LEAD_SECONDS;
    this.offset = offset;
    this.anchor = when - offset;
    this.playing = true;
    let last: Voice | null = null;
    for (const voice of this.voices.values()) {
      this.startVoice(voice, offset, when);
      if (voice.source && (!last || voice.buffer.duration > last.buffer.duration)) last = voice;
    }
    if (!last?.source) {
      this.stopAll();
      return;
    }
    // The longest row ending is the board ending (a stop from pause or seek bumps the run first).
    last.source.onended = () => {
      if (run !== this.run || !this.playing) return;
      this.offset = this.duration;
      this.stopAll();
      this.onEnded?.();
    };
  }

  private startVoice(voice: Voice, offset: number, when: number): void {
    if (offset >= voice.buffer.duration) return;
    const source = this.context.createBufferSource();
    source.buffer = voice.buffer;
    source.connect(voice.gain);
    source.start(when, offset);
    voice.source = source;
  }

  private stopAll(): void {
    this.run += 1;
    this.playing = false;
    for (const voice of this.voices.values()) this.stopVoice(voice);
  }

  private stopVoice(voice: Voice): void {
    const source = voice.source;
    if (!source) return;
    voice.source = null;
    source.onended = null;
    try {
      source.stop();
    } catch {
      // Already stopped by its own end.
    }
    source.disconnect();
  }
}
