/** What the mixing module needs from the server's configuration. */
export interface MixingOptions {
  /** Where the e-mailed links point (PUBLIC_URL). */
  readonly publicUrl: string;
  /** Signs the e-mailed download links (the audio module's key: one key for every e-mailed link). */
  readonly linkSecret: Buffer;
}

export const MIXING_OPTIONS = Symbol('MIXING_OPTIONS');
