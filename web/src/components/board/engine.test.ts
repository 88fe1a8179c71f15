import { describe, expect, it } from '@jest/globals';
import { START_LEAD_SECONDS, StemsEngine, type AudioContextLike } from './engine';
import { FakeAudioContext, fakeAudio } from './test/fakeAudioContext';

async function engineWith(lengths: Record<string, number>) {
  const context = new FakeAudioContext();
  const engine = new StemsEngine(context as unknown as AudioContextLike);
  for (const [id, seconds] of Object.entries(lengths)) {
    await engine.add(id, await fakeAudio(seconds).arrayBuffer());
  }
  return { context, engine };
}

describe('the stems engine (one clock for every row)', () => {
  it('starts every row on the same tick at the same offset, after resuming the context', async () => {
    const { context, engine } = await engineWith({ vocals: 8, drums: 8, original: 10 });
    context.currentTime = 2;
    await engine.play();
    expect(context.state).toBe('running');
    const starts = context.playing().map((source) => source.started);
    expect(starts).toEqual(Array(3).fill({ when: 2 + START_LEAD_SECONDS, offset: 0 }));
    expect(engine.duration).toBe(10);
  });

  it('reads the position from the context clock, pauses there and resumes every row from it', async () => {
    const { context, engine } = await engineWith({ vocals: 8, drums: 8 });
    await engine.play();
    context.currentTime = START_LEAD_SECONDS + 3.5;
    expect(engine.currentTime()).toBeCloseTo(3.5, 6);
    engine.pause();
    expect(context.playing()).toEqual([]);
    context.currentTime = 20;
    expect(engine.currentTime()).toBeCloseTo(3.5, 6);
    await engine.play();
    expect(context.playing().map((source) => source.started?.offset)).toEqual([3.5, 3.5].map(expect.closeTo));
  });

  it('seeks and skips 5 s all rows together, within the board, and leaves a row shorter than the spot silent', async () => {
    const { context, engine } = await engineWith({ vocals: 4, original: 10 });
    await engine.play();
    engine.seek(6);
    const playing = context.playing();
    expect(playing).toHaveLength(1);
    expect(playing[0]?.buffer?.duration).toBe(10);
    expect(playing[0]?.started?.offset).toBe(6);
    engine.pause();
    engine.skip(5);
    expect(engine.currentTime()).toBe(10);
    engine.skip(-30);
    expect(engine.currentTime()).toBe(0);
  });

  it('stops at the end of the longest row and plays again from the start', async () => {
    const { context, engine } = await engineWith({ vocals: 4, original: 6 });
    let ended = 0;
    engine.onEnded = () => (ended += 1);
    await engine.play();
    // The shorter row ending is not the end of the board.
    context.sources.find((source) => source.buffer?.duration === 4)?.end();
    expect(engine.isPlaying).toBe(true);
    context.currentTime = 6 + START_LEAD_SECONDS;
    context.sources.find((source) => source.buffer?.duration === 6)?.end();
    expect(ended).toBe(1);
    expect(engine.isPlaying).toBe(false);
    expect(engine.currentTime()).toBe(6);
    await engine.play();
    expect(context.playing().map((source) => source.started?.offset)).toEqual([0, 0]);
  });

  it('ignores the end of sources it stopped itself (pause, seek)', async () => {
    const { engine } = await engineWith({ vocals: 4 });
    let ended = 0;
    engine.onEnded = () => (ended += 1);
    await engine.play();
    engine.seek(1);
    engine.pause();
    expect(ended).toBe(0);
  });

  it('sets each row its own gain, and a row decoded while playing joins at the shared position', async () => {
    const { context, engine } = await engineWith({ vocals: 8 });
    engine.setLevel('vocals', 0);
    expect(context.gains[0]?.gain.value).toBe(0);
    await engine.play();
    context.currentTime = START_LEAD_SECONDS + 2;
    await engine.add('drums', await fakeAudio(8).arrayBuffer(), 0.4);
    const drums = context.sources.find((source) => source.output === context.gains[1]);
    expect(context.gains[1]?.gain.value).toBe(0.4);
    expect(drums?.started?.offset).toBeCloseTo(2, 6);
  });

  it('releases everything and closes the context when disposed', async () => {
    const { context, engine } = await engineWith({ vocals: 8 });
    await engine.play();
    engine.dispose();
    expect(context.playing()).toEqual([]);
    expect(context.gains[0]?.connected).toBe(false);
    await Promise.resolve();
    expect(context.state).toBe('closed');
    await engine.play();
    expect(context.playing()).toEqual([]);
  });
});
