import { describe, expect, it } from '@jest/globals';
import {
  addFiles,
  boardOrder,
  defaultSettings,
  definedOnly,
  guessInstrumentGroup,
  MAX_FILES,
  mixPercent,
  mixProblems,
  stepStates,
} from './mixing';

const wav = (name: string) => ({ name, type: 'audio/wav' });

describe('guessInstrumentGroup (spec §3: keywords in order, else other)', () => {
  it.each([
    ['Kick 808.wav', 'kick'],
    ['snare_top.wav', 'snare'],
    ['Cymbals.wav', 'cymbals'],
    ['hi-hat loop.wav', 'cymbals'],
    ['HiHat.wav', 'cymbals'],
    ['drum bus.wav', 'drums'],
    ['bass line.wav', 'bass'],
    ['lead vox.wav', 'vocal'],
    ['Vocal take 3.wav', 'vocal'],
    ['voice memo.wav', 'vocal'],
    ['percussions.wav', 'percs'],
    ['strings section.wav', 'strings'],
    ['synth pad.wav', 'synth'],
    ['fx riser.wav', 'fx'],
    ['crowd effect.wav', 'fx'],
    ['keys.wav', 'keys'],
    ['Piano.wav', 'keys'],
    ['brass.wav', 'brass'],
    ['trumpet.wav', 'brass'],
    ['alto sax.wav', 'brass'],
    ['electric guitar.wav', 'e_guitar'],
    ['acoustic guitar.wav', 'acoustic_guitar'],
    ['backing track.wav', 'backing_track'],
  ])('%s → %s', (name, group) => {
    expect(guessInstrumentGroup(name)).toBe(group);
  });

  it('takes the first keyword of the spec order when a name has several', () => {
    expect(guessInstrumentGroup('kick drum.wav')).toBe('kick'); // kick before drum
    expect(guessInstrumentGroup('snare drum.wav')).toBe('snare'); // snare before drum
    expect(guessInstrumentGroup('drum and bass.wav')).toBe('drums'); // drum before bass
    expect(guessInstrumentGroup('bass vocal.wav')).toBe('bass'); // bass before vocal
    expect(guessInstrumentGroup('vocal fx.wav')).toBe('vocal'); // vocal before fx
    expect(guessInstrumentGroup('synth keys.wav')).toBe('synth'); // synth before key
    expect(guessInstrumentGroup('piano brass.wav')).toBe('keys'); // key before brass
    expect(guessInstrumentGroup('acoustic electric.wav')).toBe('e_guitar'); // electric before acoustic
  });

  it('falls back to other, and ignores the extension and a word merely containing fx', () => {
    expect(guessInstrumentGroup('take 1.wav')).toBe('other_group1');
    expect(guessInstrumentGroup('afx.wav')).toBe('other_group1');
    expect(guessInstrumentGroup('song.kick')).toBe('other_group1');
  });

  it('gives the spec defaults with the guessed group', () => {
    expect(defaultSettings('Lead Vocal.wav')).toEqual({
      instrumentGroup: 'vocal',
      presenceSetting: 'NORMAL',
      panPreference: 'NO_PREFERENCE',
      reverbPreference: 'NONE',
    });
  });
});

describe('validation (spec §5)', () => {
  it('needs a name, 2 to 5 files, WAV only', () => {
    expect(mixProblems('My Mix', [wav('a.wav'), wav('b.wav')])).toEqual([]);
    expect(mixProblems('  ', [wav('a.wav'), wav('b.wav')])).toEqual(['mixNameRequired']);
    expect(mixProblems('x', [wav('a.wav')])).toEqual(['minimumFiles']);
    expect(mixProblems('x', [])).toEqual(['minimumFiles']);
    expect(
      mixProblems(
        'x',
        Array.from({ length: 6 }, (_, i) => wav(`${i}.wav`)),
      ),
    ).toEqual(['maximumFiles']);
    expect(mixProblems('x', [wav('a.wav'), { name: 'b.mp3', type: 'audio/mpeg' }])).toEqual(['fileFormat']);
  });

  it('keeps WAV files up to five, refusing the others with the reason', () => {
    const first = addFiles([], [wav('a.wav'), { name: 'b.mp3', type: 'audio/mpeg' }, wav('c.wav')]);
    expect(first.files.map((file) => file.name)).toEqual(['a.wav', 'c.wav']);
    expect(first.problem).toBe('fileFormat');
    const more = addFiles(
      first.files,
      ['d', 'e', 'f', 'g'].map((n) => wav(`${n}.wav`)),
    );
    expect(more.files).toHaveLength(MAX_FILES);
    expect(more.problem).toBe('maximumFiles');
    expect(addFiles([], [{ name: 'typeless.WAV', type: '' }]).files).toHaveLength(1);
    expect(addFiles([wav('a.wav')], [wav('a.wav')]).files).toHaveLength(1);
  });

  it('skips a WAV already in the list without calling it the wrong format', () => {
    const again = addFiles([wav('a.wav')], [wav('a.wav'), wav('b.wav')]);
    expect(again.files.map((file) => file.name)).toEqual(['a.wav', 'b.wav']);
    expect(again.problem).toBeNull();
    expect(addFiles([], [wav('a.wav'), wav('a.wav')]).files).toHaveLength(1);
  });

  it('drops undefined values before an update', () => {
    expect(definedOnly({ panPreference: 'LEFT', reverbPreference: undefined })).toEqual({ panPreference: 'LEFT' });
  });
});

describe('the board', () => {
  it('puts the row whose name or type contains "mix" first', () => {
    const rows = [
      { name: 'kick.wav', type: 'kick' },
      { name: 'vox.wav', type: 'vocal' },
      { name: 'Dakar nights', type: 'mix' },
    ];
    expect(boardOrder(rows).map((row) => row.type)).toEqual(['mix', 'kick', 'vocal']);
    expect(
      boardOrder([
        { name: 'a', type: 'bass' },
        { name: 'Final MIX', type: 'final' },
      ])[0]?.name,
    ).toBe('Final MIX');
  });

  it('has six steps, and a progress that never goes back and stops at 99 until done', () => {
    expect(stepStates(0)).toEqual(['processing', 'waiting', 'waiting', 'waiting', 'waiting', 'waiting']);
    expect(stepStates(50)).toEqual(['completed', 'completed', 'completed', 'processing', 'waiting', 'waiting']);
    expect(stepStates(100)).toEqual(Array(6).fill('completed'));
    const base = { status: 'PROCESSING', startedAt: 0, previous: 0 };
    expect(mixPercent({ ...base, now: 60 * 60_000, engine: null })).toBe(80);
    expect(mixPercent({ ...base, now: 0, engine: 0.999 })).toBe(99);
    expect(mixPercent({ ...base, now: 0, engine: 0.1, previous: 40 })).toBe(40);
    expect(mixPercent({ ...base, status: 'COMPLETED', now: 0, engine: null })).toBe(100);
  });
});
