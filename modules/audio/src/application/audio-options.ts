export const AUDIO_OPTIONS = Symbol.for('kora.audio.options');

export interface AudioOptions {
  /** Jobs this process runs at once (0: this process runs none, e.g. an API replica beside workers). */
  readonly workers: number;
  /** Secret for signed download links (e-mailed results). */
  readonly linkSecret: Buffer;
  /** Where users reach the product, for links in e-mails. */
  readonly publicUrl: string;
  /** How long a worker's hold on a job lasts without renewal (default 15 s). */
  readonly leaseMs?: number;
}
