import { describe, expect, it } from '@jest/globals';
import { stemColour, STEM_PALETTE, TRACK_PALETTE } from '../../../components/board/colours';
import { sortStems } from '@kora/contracts';

// The board lists stems in the order the contract publishes (the engine's `STEM_ORDER`), checked here as the board uses it.
describe('stem order (spec §4)', () => {
  it('follows the spec list whatever order the stems come in', () => {
    const spec = [
      'lead_vocals',
      'backing_vocals',
      'vocals',
      'drums',
      'kick_drums',
      'snare_drums',
      'hi_hats',
      'cymbals',
      'toms',
      'bass',
      'guitars',
      'acoustic_guitars',
      'electric_guitars',
      'piano',
      'keys',
      'strings',
      'wind',
    ];
    expect(sortStems([...spec].reverse())).toEqual(spec);
    expect(sortStems(['other', 'bass', 'drums', 'vocals'])).toEqual(['vocals', 'drums', 'bass', 'other']);
  });

  it('puts the unlisted types after the list, alphabetically, and other always last', () => {
    expect(sortStems(['other', 'zither', 'track2', 'bass', 'accordion', 'wind'])).toEqual([
      'bass',
      'wind',
      'accordion',
      'track2',
      'zither',
      'other',
    ]);
  });

  it('ranks the hi-hat alias with hi-hats, between snare and cymbals', () => {
    expect(sortStems(['cymbals', 'hihat_drums', 'snare_drums'])).toEqual(['snare_drums', 'hihat_drums', 'cymbals']);
  });
});

describe('stem colours (spec §9)', () => {
  it('has palettes of 15 and 5 colours', () => {
    expect(STEM_PALETTE).toHaveLength(15);
    expect(TRACK_PALETTE).toHaveLength(5);
    expect(new Set(STEM_PALETTE).size).toBe(15);
  });

  it('gives the base stems distinct colours and any other name a stable one', () => {
    const base = ['vocals', 'drums', 'bass', 'piano', 'guitars', 'strings', 'wind', 'keys', 'other'];
    expect(new Set(base.map(stemColour)).size).toBe(base.length);
    expect(stemColour('track6')).toBe(TRACK_PALETTE[0]);
    expect(stemColour('didgeridoo')).toBe(stemColour('didgeridoo'));
    expect(STEM_PALETTE).toContain(stemColour('didgeridoo'));
  });
});
