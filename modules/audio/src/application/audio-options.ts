export const AUDIO_OPTIONS = Symbol.for('kora.audio.options');

export interface AudioOptions {
  /** Secret for signed download links (e-mailed results). */
  readonly linkSecret: Buffer;
  /** Where users reach the product, for links in e-mails. */
  readonly publicUrl: string;
}
