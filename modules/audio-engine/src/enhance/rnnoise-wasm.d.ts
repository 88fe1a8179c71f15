/** Minimal typing of the Emscripten module exported by @echogarden/rnnoise-wasm (ESM, no bundled types). */
declare module '@echogarden/rnnoise-wasm' {
  export interface RnnoiseModule {
    HEAPF32: Float32Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    _rnnoise_create(model: number): number;
    _rnnoise_destroy(state: number): void;
    _rnnoise_get_frame_size(): number;
    /** Denoises one 480-sample frame (int16-scaled floats) in place; returns the voice probability 0..1. */
    _rnnoise_process_frame(state: number, out: number, input: number): number;
  }
  const factory: (options?: Record<string, unknown>) => Promise<RnnoiseModule>;
  export default factory;
}
