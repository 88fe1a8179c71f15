/**
 * A stand-in for the Web Audio API, which jsdom lacks: a clock the test moves, "decoding" that reads the bytes as
 * float samples at 100 Hz (so a test chooses each row's length), and sources and gains that record what the engine
 * asked of them.
 */
export const FAKE_RATE = 100;

export interface FakeBuffer {
  duration: number;
  length: number;
  sampleRate: number;
  numberOfChannels: number;
  getChannelData(channel: number): Float32Array;
}

export class FakeGain {
  readonly gain = {
    value: 1,
    setTargetAtTime: (value: number) => {
      this.gain.value = value;
    },
  };
  connected = false;
  connect() {
    this.connected = true;
  }
  disconnect() {
    this.connected = false;
  }
}

export class FakeSource {
  buffer: FakeBuffer | null = null;
  output: FakeGain | null = null;
  started: { when: number; offset: number } | null = null;
  stopped = false;
  onended: (() => void) | null = null;
  connect(gain: FakeGain) {
    this.output = gain;
  }
  disconnect() {
    this.output = null;
  }
  start(when: number, offset: number) {
    this.started = { when, offset };
  }
  stop() {
    this.stopped = true;
    this.onended?.();
  }
  /** The source reaching the end of its buffer by itself. */
  end() {
    this.onended?.();
  }
}

/** Samples as the bytes of a fetched file: `seconds` long at FAKE_RATE, a ramp so the peaks are known. */
export function fakeAudio(seconds: number, level = 0.5): Blob {
  const samples = new Float32Array(Math.round(seconds * FAKE_RATE));
  for (let i = 0; i < samples.length; i += 1) samples[i] = (i % 2 === 0 ? level : -level) * ((i + 1) / samples.length);
  return new Blob([samples.buffer]);
}

export class FakeAudioContext {
  static instances: FakeAudioContext[] = [];
  currentTime = 0;
  state: 'suspended' | 'running' | 'closed' = 'suspended';
  readonly destination = {};
  readonly sources: FakeSource[] = [];
  readonly gains: FakeGain[] = [];

  constructor() {
    FakeAudioContext.instances.push(this);
  }

  async resume() {
    this.state = 'running';
  }

  async close() {
    this.state = 'closed';
  }

  async decodeAudioData(data: ArrayBuffer): Promise<FakeBuffer> {
    const samples = new Float32Array(data.slice(0));
    if (samples.length === 0) throw new DOMException('Unable to decode audio data', 'EncodingError');
    return {
      duration: samples.length / FAKE_RATE,
      length: samples.length,
      sampleRate: FAKE_RATE,
      numberOfChannels: 1,
      getChannelData: () => samples,
    };
  }

  createGain() {
    const gain = new FakeGain();
    this.gains.push(gain);
    return gain;
  }

  createBufferSource() {
    const source = new FakeSource();
    this.sources.push(source);
    return source;
  }

  /** The sources currently playing (started and not stopped). */
  playing(): FakeSource[] {
    return this.sources.filter((source) => source.started && !source.stopped);
  }
}
