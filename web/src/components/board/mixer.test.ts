import { describe, expect, it } from '@jest/globals';
import { boardGains, clampVolume, gainOf, initialMixer, mixerReducer, type Mixer } from './mixer';

const ids = ['original', 'vocals', 'drums', 'other'];
const flags = (mixer: Mixer, flag: 'muted' | 'solo') =>
  Object.entries(mixer)
    .filter(([, channel]) => channel[flag])
    .map(([id]) => id);

describe('the mixer (spec §4 mute/solo rules)', () => {
  it('starts every row at volume 1, neither muted nor soloed', () => {
    expect(initialMixer(ids).vocals).toEqual({ volume: 1, muted: false, solo: false });
    expect(Object.keys(initialMixer(ids))).toEqual(ids);
  });

  it('soloing a track unmutes it and mutes all the others', () => {
    const muted = mixerReducer(initialMixer(ids), { type: 'toggleMute', id: 'vocals' });
    const soloed = mixerReducer(muted, { type: 'toggleSolo', id: 'vocals' });
    expect(soloed.vocals).toEqual({ volume: 1, muted: false, solo: true });
    expect(flags(soloed, 'muted')).toEqual(['original', 'drums', 'other']);
  });

  it('soloing another track moves the solo: the first is muted and loses its solo', () => {
    const first = mixerReducer(initialMixer(ids), { type: 'toggleSolo', id: 'vocals' });
    const second = mixerReducer(first, { type: 'toggleSolo', id: 'drums' });
    expect(flags(second, 'solo')).toEqual(['drums']);
    expect(flags(second, 'muted')).toEqual(['original', 'vocals', 'other']);
  });

  it('un-soloing a track unmutes all the others', () => {
    const soloed = mixerReducer(initialMixer(ids), { type: 'toggleSolo', id: 'drums' });
    const unsoloed = mixerReducer(soloed, { type: 'toggleSolo', id: 'drums' });
    expect(flags(unsoloed, 'muted')).toEqual([]);
    expect(flags(unsoloed, 'solo')).toEqual([]);
  });

  it('unmuting a soloed track clears solo on the others', () => {
    // Two solos lit and the first one muted (a state the reducer must handle whatever led to it).
    const state: Mixer = {
      original: { volume: 1, muted: true, solo: false },
      vocals: { volume: 1, muted: true, solo: true },
      drums: { volume: 1, muted: false, solo: true },
      other: { volume: 1, muted: true, solo: false },
    };
    const next = mixerReducer(state, { type: 'toggleMute', id: 'vocals' });
    expect(next.vocals).toEqual({ volume: 1, muted: false, solo: true });
    expect(flags(next, 'solo')).toEqual(['vocals']);
    // Only solo flags change: the others' mutes stay as they were.
    expect(flags(next, 'muted')).toEqual(['original', 'other']);
  });

  it('muting or unmuting a track without solo touches no other row', () => {
    const muted = mixerReducer(initialMixer(ids), { type: 'toggleMute', id: 'other' });
    expect(flags(muted, 'muted')).toEqual(['other']);
    const unmuted = mixerReducer(muted, { type: 'toggleMute', id: 'other' });
    expect(unmuted).toEqual(initialMixer(ids));
  });

  it('keeps volumes on the slider grid, 0 to 1 by 0.01', () => {
    const set = (volume: number) => mixerReducer(initialMixer(ids), { type: 'setVolume', id: 'bass', volume });
    expect(set(0.5).bass).toBeUndefined();
    const state = mixerReducer(initialMixer(ids), { type: 'setVolume', id: 'vocals', volume: 0.4567 });
    expect(state.vocals?.volume).toBe(0.46);
    expect(clampVolume(1.7)).toBe(1);
    expect(clampVolume(-0.2)).toBe(0);
    expect(clampVolume(Number.NaN)).toBe(1);
  });

  it('plays a muted row at gain 0 and the others at their volume', () => {
    const state = mixerReducer(mixerReducer(initialMixer(ids), { type: 'setVolume', id: 'vocals', volume: 0.3 }), {
      type: 'toggleSolo',
      id: 'vocals',
    });
    expect(gainOf(state.vocals)).toBe(0.3);
    expect(gainOf(state.drums)).toBe(0);
    expect(gainOf(undefined)).toBe(0);
  });

  it('resets to a fresh mixer for a new set of rows', () => {
    const soloed = mixerReducer(initialMixer(ids), { type: 'toggleSolo', id: 'vocals' });
    expect(mixerReducer(soloed, { type: 'reset', ids: ['original', 'guitars'] })).toEqual(
      initialMixer(['original', 'guitars']),
    );
  });
});

describe('what the board plays (stems summed, or the reference alone)', () => {
  const stems = ['vocals', 'drums', 'other'];
  const mixer = mixerReducer(mixerReducer(initialMixer(stems), { type: 'toggleMute', id: 'vocals' }), {
    type: 'setVolume',
    id: 'drums',
    volume: 0.4,
  });

  it('plays the audible stems at their gains and never the reference under them', () => {
    expect(boardGains(initialMixer(stems), stems, 'original', 'stems')).toEqual({
      vocals: 1,
      drums: 1,
      other: 1,
      original: 0,
    });
    expect(boardGains(mixer, stems, 'original', 'stems')).toEqual({ vocals: 0, drums: 0.4, other: 1, original: 0 });
    const soloed = mixerReducer(mixer, { type: 'toggleSolo', id: 'drums' });
    expect(boardGains(soloed, stems, 'original', 'stems')).toEqual({ vocals: 0, drums: 0.4, other: 0, original: 0 });
  });

  it('plays the reference alone, at unity, when it is chosen', () => {
    expect(boardGains(mixer, stems, 'original', 'reference')).toEqual({
      vocals: 0,
      drums: 0,
      other: 0,
      original: 1,
    });
  });

  it('plays the stems when there is no reference row', () => {
    expect(boardGains(mixer, stems, undefined, 'stems')).toEqual({ vocals: 0, drums: 0.4, other: 1 });
  });
});
