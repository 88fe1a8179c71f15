/**
 * The mixing decisions as a mixing engineer would check them, on hand-built analyses (no audio): loudness targets and
 * the presence ordering, pan positions, masking cuts, measured build-ups, the EQ plan and the reverb sends.
 */
import { describe, expect, it } from '@jest/globals';
import { THIRD_OCTAVE_NOMINAL } from '../src/analysis/spectrum';
import {
  GLUE,
  type PlannedAnalysis,
  type PlannedTrack,
  REFERENCE_LUFS,
  maskingCuts,
  measuredEq,
  planEq,
  planLevels,
  planPan,
  reverbSendOf,
} from '../src/mix/decisions';
import type { EqMove } from '../src/mix/eq';
import {
  BACKGROUND_MARGIN_LU,
  LEAD_MARGIN_LU,
  PAN_POSITION,
  PRESENCE_LU,
  profileOf,
  resolveSettings,
} from '../src/mix/settings';
import type { InstrumentGroup, TrackSettings } from '../src/types';

/** A spectrum at `floor` dB in every third-octave band but those given (band Hz -> dB), measured at `lufs`. */
function analysis(lufs: number, bands: Record<number, number> = {}, floor = -60): PlannedAnalysis {
  return {
    integratedLufs: lufs,
    spectrum: { bandsHz: [...THIRD_OCTAVE_NOMINAL], levelsDb: THIRD_OCTAVE_NOMINAL.map((f) => bands[f] ?? floor) },
  };
}

interface TrackSpec extends TrackSettings {
  analysis?: PlannedAnalysis | null;
  /** Defaults to the analysis's loudness (levels staged as measured). */
  targetLufs?: number;
  muted?: boolean;
}

let nextIndex = 0;
function track(name: string, spec: TrackSpec = {}): PlannedTrack {
  const { analysis: a = analysis(-20), targetLufs, muted = false, ...settings } = spec;
  return {
    index: nextIndex++,
    name,
    settings: resolveSettings(name, settings),
    analysis: a,
    targetLufs: targetLufs ?? a?.integratedLufs ?? -Infinity,
    targetReason: '',
    pan: { position: 0, width: 1, reason: '' },
    muted,
  };
}

/** A track of the group, named after it. */
const group = (instrumentGroup: InstrumentGroup, spec: TrackSpec = {}) =>
  track(`${instrumentGroup}.wav`, { instrumentGroup, ...spec });
const planned = (tracks: PlannedTrack[]) => new Map(planLevels(tracks).map((t) => [t.name, t]));
const groupTarget = (g: InstrumentGroup, presence: keyof typeof PRESENCE_LU) =>
  REFERENCE_LUFS + profileOf(g).levelLu + PRESENCE_LU[presence];

describe('loudness targets: group and presence, then LEAD above NORMAL above BACKGROUND', () => {
  it('starts every track at the reference plus its group offset plus its presence offset, and says so', () => {
    const t = planned([group('bass'), group('keys', { presenceSetting: 'BACKGROUND' })]);
    expect(t.get('bass.wav')).toMatchObject({
      targetLufs: REFERENCE_LUFS - 2,
      targetReason: 'bass -2 LU, NORMAL +0 LU',
    });
    // keys -4 LU, BACKGROUND -5 LU: already 7 LU under the only NORMAL track (the bass), so left there.
    expect(t.get('keys.wav')).toMatchObject({
      targetLufs: REFERENCE_LUFS - 9,
      targetReason: 'keys -4 LU, BACKGROUND -5 LU',
    });
  });

  it('raises a LEAD track to LEAD_MARGIN_LU above the loudest NORMAL track, never lowers one already above', () => {
    // Cymbals as the lead part start at -24 - 10 + 4.5 = -29.5 LUFS, under the vocal and the drums.
    const t = planLevels([
      group('cymbals', { presenceSetting: 'LEAD' }),
      group('vocal'),
      group('drums'),
      track('Lead Vox.wav', { presenceSetting: 'LEAD' }),
    ]);
    const leads = t.filter((x) => x.settings.presenceSetting === 'LEAD');
    const normals = t.filter((x) => x.settings.presenceSetting === 'NORMAL');
    expect([leads.length, normals.length]).toEqual([2, 2]);
    for (const lead of leads)
      for (const normal of normals) expect(lead.targetLufs - normal.targetLufs).toBeGreaterThanOrEqual(LEAD_MARGIN_LU);
    const cymbals = leads.find((x) => x.settings.instrumentGroup === 'cymbals')!;
    expect(cymbals.targetLufs).toBe(groupTarget('vocal', 'NORMAL') + LEAD_MARGIN_LU);
    expect(cymbals.targetReason).toBe(
      `cymbals -10 LU, LEAD +4.5 LU; raised to ${LEAD_MARGIN_LU} LU above the loudest NORMAL track`,
    );
    const vocalLead = planned([group('vocal', { presenceSetting: 'LEAD' }), group('fx')]).get('vocal.wav')!;
    expect(vocalLead.targetLufs).toBe(groupTarget('vocal', 'LEAD'));
    expect(vocalLead.targetReason).not.toContain('raised');
    // A kick as the lead part starts 3.5 LU over a NORMAL bass: raised all the same, to the full margin.
    const kick = planned([group('kick', { presenceSetting: 'LEAD' }), group('bass')]).get('kick.wav')!;
    expect(groupTarget('kick', 'LEAD') - groupTarget('bass', 'NORMAL')).toBe(3.5);
    expect(kick.targetLufs).toBe(groupTarget('bass', 'NORMAL') + LEAD_MARGIN_LU);
  });

  it('lowers a BACKGROUND track to BACKGROUND_MARGIN_LU below the quietest NORMAL track, never raises one', () => {
    const t = planned([group('vocal', { presenceSetting: 'BACKGROUND' }), group('keys'), group('fx')]);
    const quietestNormal = groupTarget('fx', 'NORMAL');
    expect(t.get('vocal.wav')!.targetLufs).toBe(quietestNormal - BACKGROUND_MARGIN_LU);
    expect(t.get('vocal.wav')!.targetReason).toContain(
      `lowered to ${BACKGROUND_MARGIN_LU} LU below the quietest NORMAL track`,
    );
    for (const normal of [t.get('keys.wav')!, t.get('fx.wav')!])
      expect(normal.targetLufs - t.get('vocal.wav')!.targetLufs).toBeGreaterThanOrEqual(BACKGROUND_MARGIN_LU);
    const quiet = planned([group('fx', { presenceSetting: 'BACKGROUND' }), group('vocal')]).get('fx.wav')!;
    expect(quiet.targetLufs).toBe(groupTarget('fx', 'BACKGROUND'));
    // A BACKGROUND vocal starts exactly BACKGROUND_MARGIN_LU under a NORMAL bass: left where it is.
    const atMargin = planned([group('vocal', { presenceSetting: 'BACKGROUND' }), group('bass')]).get('vocal.wav')!;
    expect(groupTarget('bass', 'NORMAL') - atMargin.targetLufs).toBe(BACKGROUND_MARGIN_LU);
    expect(atMargin.targetReason).toBe('vocal +0 LU, BACKGROUND -5 LU');
  });

  it('without NORMAL tracks, holds BACKGROUND both margins under the quietest LEAD and leaves the leads alone', () => {
    const t = planned([
      group('cymbals', { presenceSetting: 'LEAD' }),
      group('vocal', { presenceSetting: 'LEAD' }),
      group('bass', { presenceSetting: 'BACKGROUND' }),
    ]);
    expect(t.get('cymbals.wav')!.targetLufs).toBe(groupTarget('cymbals', 'LEAD'));
    expect(t.get('vocal.wav')!.targetLufs).toBe(groupTarget('vocal', 'LEAD'));
    expect(t.get('bass.wav')).toMatchObject({
      targetLufs: groupTarget('cymbals', 'LEAD') - LEAD_MARGIN_LU - BACKGROUND_MARGIN_LU,
      targetReason: 'bass -2 LU, BACKGROUND -5 LU; lowered under the LEAD tracks',
    });
  });

  it('leaves a muted track at its group and presence target, and does not count it for the others', () => {
    const t = planned([
      group('cymbals', { presenceSetting: 'LEAD' }),
      group('fx'),
      group('vocal', { muted: true }),
      group('bass', { presenceSetting: 'BACKGROUND', muted: true }),
    ]);
    // The silent vocal (-24) would have pushed the lead to -20 LUFS; against the fx alone (-34) it is high enough.
    expect(t.get('cymbals.wav')!.targetLufs).toBe(groupTarget('cymbals', 'LEAD'));
    expect(t.get('vocal.wav')!.targetLufs).toBe(groupTarget('vocal', 'NORMAL'));
    // A muted BACKGROUND track is not lowered under the fx: it keeps its target, reason and all.
    expect(t.get('bass.wav')).toMatchObject({
      targetLufs: groupTarget('bass', 'BACKGROUND'),
      targetReason: 'bass -2 LU, BACKGROUND -5 LU',
    });
    // A muted LEAD is not raised over a NORMAL vocal.
    const lead = planned([group('keys', { presenceSetting: 'LEAD', muted: true }), group('vocal')]).get('keys.wav')!;
    expect(lead).toMatchObject({ targetLufs: groupTarget('keys', 'LEAD'), targetReason: 'keys -4 LU, LEAD +4.5 LU' });
  });
});

describe('pan: preferences honoured, the rest centred or spread to balance the sides', () => {
  const pans = (tracks: PlannedTrack[]) => planPan(tracks).map((t) => t.pan);

  it('places explicit preferences where asked, lead parts and centre groups included', () => {
    expect(
      pans([
        group('vocal', { presenceSetting: 'LEAD', panPreference: 'LEFT' }),
        group('bass', { panPreference: 'RIGHT' }),
        group('keys', { panPreference: 'CENTRE' }),
      ]),
    ).toEqual([
      { position: PAN_POSITION.LEFT, width: 0.5, reason: 'preference LEFT' },
      { position: PAN_POSITION.RIGHT, width: 0.5, reason: 'preference RIGHT' },
      { position: 0, width: 1, reason: 'preference CENTRE' },
    ]);
    expect(PAN_POSITION.LEFT).toBeLessThan(0);
    expect(PAN_POSITION.RIGHT).toBeGreaterThan(0);
  });

  it.each<InstrumentGroup>(['vocal', 'bass', 'kick', 'snare', 'drums', 'backing_track'])(
    'keeps %s in the centre, full width, when no side is asked for',
    (g) => {
      expect(pans([group(g)])).toEqual([{ position: 0, width: 1, reason: `${g} kept in the centre` }]);
    },
  );

  it('keeps a lead part in the centre whatever its group', () => {
    expect(pans([group('synth', { presenceSetting: 'LEAD' })])).toEqual([
      { position: 0, width: 1, reason: 'lead part kept in the centre' },
    ]);
  });

  it('spreads the other parts to alternate sides, right first, moving outward as the sides fill (width 0.7)', () => {
    const p = pans([group('keys'), group('synth'), group('e_guitar'), group('strings'), group('percs')]);
    expect(p.map((x) => x.position)).toEqual([0.35, -0.35, 0.5, -0.5, 0.65]);
    for (const x of p)
      expect(x).toMatchObject({ width: 0.7, reason: 'no preference: spread to balance the stereo image' });
    // Four spread parts leave the image balanced.
    expect(p.slice(0, 4).reduce((s, x) => s + x.position, 0)).toBeCloseTo(0, 12);
  });

  it('sends spread parts to the lighter side: after an explicit LEFT part, the right until it is the heavier', () => {
    const p = pans([group('keys', { panPreference: 'LEFT' }), group('synth'), group('strings'), group('percs')]);
    // -0.6, then +0.35 (-0.25 left over), +0.35 again (+0.1), then the left at the next step out.
    expect(p.map((x) => x.position)).toEqual([-0.6, 0.35, 0.35, -0.5]);
    const mirrored = pans([group('keys', { panPreference: 'RIGHT' }), group('synth')]);
    expect(mirrored[1]!.position).toBe(-0.35);
    // Centred parts weigh nothing: the spread still starts on the right.
    expect(pans([group('bass'), group('vocal', { presenceSetting: 'LEAD' }), group('synth')])[2]!.position).toBe(0.35);
  });

  it('lets a muted track weigh nothing: the parts that are heard spread as if it were not there', () => {
    // A muted RIGHT part does not send the spread to the left.
    const afterMuted = pans([group('keys', { panPreference: 'RIGHT', muted: true }), group('synth')]);
    expect(afterMuted.map((x) => x.position)).toEqual([PAN_POSITION.RIGHT, 0.35]);
    // A muted spread part takes no position from the others: they still get 0.35 right and 0.35 left.
    const spread = pans([group('keys', { muted: true }), group('synth'), group('strings')]);
    expect(spread.slice(1).map((x) => x.position)).toEqual([0.35, -0.35]);
  });
});

describe("masking cuts: a lower-priority track makes room in a higher-priority track's focus band", () => {
  /** The vocal (priority 10, focus 1-5 kHz) loud at -20 dB across its focus band. */
  const vocalFocus = { 1000: -20, 1250: -20, 1600: -20, 2000: -20, 2500: -20, 3150: -20, 4000: -20, 5000: -20 };
  const vocal = (spec: TrackSpec = {}) => track('Lead Vox.wav', { analysis: analysis(-20, vocalFocus), ...spec });

  it('cuts the lower-priority track once, at the band where it competes most, inside the focus band only', () => {
    // The keys (priority 5) come within 2 dB of the vocal at 2 kHz; much louder at 500 Hz, outside the vocal's focus.
    const v = vocal();
    const keys = group('keys', { analysis: analysis(-20, { 500: -5, 1600: -24, 2000: -22 }) });
    const cuts = maskingCuts([v, keys]);
    expect(cuts.get(keys.index)).toEqual([
      {
        type: 'peaking',
        freqHz: 2000,
        gainDb: -2.7,
        q: 1.4,
        purpose: 'masking',
        basis: 'masking',
        maskedBy: 'Lead Vox.wav',
      },
    ]);
    expect(cuts.has(v.index)).toBe(false);
  });

  const against = (c: number) => {
    const keys = group('keys', { analysis: analysis(-20, { 2500: -20 + c }) });
    return maskingCuts([vocal(), keys]).get(keys.index);
  };

  it.each([-7, -6])('leaves a track %d dB against the vocal in its focus band uncut', (c) => {
    expect(against(c)).toBeUndefined();
  });

  // The cut grows from 1.5 dB just above -6 dB of competition by 0.3 dB per dB, up to 4 dB.
  it.each([
    [-5, -1.8],
    [-2, -2.7],
    [0, -3.3],
    [1, -3.6],
    [3, -4],
    [10, -4],
  ])('cuts a track %d dB against the vocal in its focus band by %d dB', (c, gainDb) => {
    expect(against(c)).toEqual([expect.objectContaining({ freqHz: 2500, gainDb })]);
  });

  it("leaves tracks of equal priority alone; LEAD adds 5 to a track's priority, BACKGROUND takes 3 away", () => {
    const competing = { analysis: analysis(-20, { 2000: -18 }) };
    // synth and keys are both priority 5.
    expect(maskingCuts([group('synth', { ...competing }), group('keys', { ...competing })]).size).toBe(0);
    // keys as LEAD (5 + 5) against a NORMAL vocal (10): equal, nobody is cut.
    const keysLead = group('keys', { presenceSetting: 'LEAD', analysis: analysis(-20, { 1000: -20, 2000: -20 }) });
    expect(maskingCuts([vocal(), keysLead]).size).toBe(0);
    // Against a BACKGROUND vocal (10 - 3), the vocal makes room in the keys' focus band (250 Hz - 2 kHz).
    const bg = vocal({ presenceSetting: 'BACKGROUND' });
    const cuts = maskingCuts([bg, keysLead]);
    expect(cuts.has(keysLead.index)).toBe(false);
    expect(cuts.get(bg.index)!.map((c) => [c.freqHz, c.maskedBy])).toEqual([[1000, 'keys.wav']]);
  });

  it('looks only where the higher-priority track is within 12 dB of its own loudest focus band', () => {
    // The vocal peaks at 3.15 kHz; at 1.25 kHz it is 15 dB down, so the keys' loud 1.25 kHz is no concern of it.
    const v = track('Lead Vox.wav', { analysis: analysis(-20, { 1250: -25, 2000: -21, 3150: -10 }) });
    const keys = group('keys', { analysis: analysis(-20, { 1250: -15, 2000: -23 }) });
    expect(
      maskingCuts([v, keys])
        .get(keys.index)!
        .map((c) => c.freqHz),
    ).toEqual([2000]);
  });

  it('compares the tracks as they will be after gain staging (target minus measured loudness)', () => {
    // 10 dB under the vocal as measured, but the keys will be brought up 8 dB more than the vocal.
    const keys = (targetLufs: number) => group('keys', { analysis: analysis(-20, { 2000: -30 }), targetLufs });
    expect(maskingCuts([vocal(), keys(-20)]).size).toBe(0);
    const raised = keys(-12);
    expect(maskingCuts([vocal(), raised]).get(raised.index)).toEqual([
      expect.objectContaining({ freqHz: 2000, gainDb: -2.7 }),
    ]);
  });

  it('gives a track at most two cuts, the strongest competitions first, never two within half an octave', () => {
    // The fx (priority 1) competes with the bass at 125 Hz (+3 dB), the kick at 63 Hz (+2) and the vocal at 2 kHz (0).
    const bass = group('bass', { analysis: analysis(-20, { 125: -20 }) });
    const kick = (at: number) => group('kick', { analysis: analysis(-20, { [at]: -20 }) });
    const v = track('Lead Vox.wav', { analysis: analysis(-20, { 2000: -20 }) });
    const fx = (kickAt: number) => group('fx', { analysis: analysis(-20, { 125: -17, [kickAt]: -18, 2000: -20 }) });
    const three = fx(63);
    const cuts = maskingCuts([bass, kick(63), v, three]).get(three.index)!;
    expect(cuts.map((c) => [c.freqHz, c.maskedBy])).toEqual([
      [125, 'bass.wav'],
      [63, 'kick.wav'],
    ]);
    // With the kick's competition at 100 Hz, a third of an octave from the bass's 125 Hz, the vocal's cut comes in.
    const close = fx(100);
    const spaced = maskingCuts([bass, kick(100), v, close]).get(close.index)!;
    expect(spaced.map((c) => [c.freqHz, c.maskedBy])).toEqual([
      [125, 'bass.wav'],
      [2000, 'Lead Vox.wav'],
    ]);
  });

  it('neither cuts nor makes room for a muted track, or one without an analysis', () => {
    const keys = (spec: TrackSpec = {}) => group('keys', { analysis: analysis(-20, { 2000: -20 }), ...spec });
    expect(maskingCuts([vocal({ muted: true }), keys()]).size).toBe(0);
    expect(maskingCuts([vocal(), keys({ muted: true })]).size).toBe(0);
    expect(maskingCuts([vocal({ analysis: null }), keys()]).size).toBe(0);
  });
});

describe('measured build-ups: low-mid (mud) and upper-mid (harshness)', () => {
  it.each<[Record<number, number>, Array<Partial<EqMove>>]>([
    // 315 Hz against the mean of 125 and 800 Hz: more than 2 dB over it is cut by 0.6x the excess, 4 dB at most.
    [{ 125: -30, 315: -23, 800: -20 }, []],
    [{ 125: -30, 315: -22.9, 800: -20 }, [{ freqHz: 315, gainDb: -1.26, purpose: 'mud' }]],
    [{ 125: -30, 315: -20, 800: -20 }, [{ freqHz: 315, gainDb: -3, purpose: 'mud' }]],
    [{ 125: -30, 315: -10, 800: -20 }, [{ freqHz: 315, gainDb: -4, purpose: 'mud' }]],
    // 3.15 kHz against the mean of 1.25 and 8 kHz: the same rule, 3 dB at most.
    [{ 1250: -20, 3150: -16, 8000: -20 }, [{ freqHz: 3150, gainDb: -2.4, purpose: 'harshness' }]],
    [{ 1250: -20, 3150: -5, 8000: -20 }, [{ freqHz: 3150, gainDb: -3, purpose: 'harshness' }]],
  ])('%j -> %j', (bands, moves) => {
    const eq = measuredEq(analysis(-20, bands, -40));
    expect(eq).toEqual(moves.map((m) => ({ type: 'peaking', q: 1.4, basis: 'measured', ...m })));
  });

  it('finds both build-ups on one track, the mud first', () => {
    const eq = measuredEq(analysis(-20, { 315: -30, 3150: -30 }, -40));
    expect(eq.map((m) => [m.purpose, m.gainDb])).toEqual([
      ['mud', -4],
      ['harshness', -3],
    ]);
  });

  it('makes no move where a band it compares is empty (-Infinity)', () => {
    expect(measuredEq(analysis(-20, { 125: -Infinity, 315: -10 }, -40))).toEqual([]);
    expect(measuredEq(analysis(-20, { 3150: -Infinity }, -40))).toEqual([]);
  });
});

describe('the EQ plan of a track', () => {
  it('starts with the group high-pass (0.8x for a lead part), then the group moves, measured cuts, masking cuts', () => {
    const maskingCut: EqMove = {
      type: 'peaking',
      freqHz: 1000,
      gainDb: -2,
      q: 1.4,
      purpose: 'masking',
      basis: 'masking',
      maskedBy: 'Lead Vox.wav',
    };
    const keys = group('keys', { analysis: analysis(-20, {}, -40) });
    const eq = planEq(keys, [maskingCut]);
    expect(eq.map((d) => [d.type, d.freqHz, d.gainDb, d.basis])).toEqual([
      ['highpass', profileOf('keys').highpassHz, 0, 'group'],
      ['peaking', 300, -1.5, 'group'],
      ['peaking', 1000, -2, 'masking'],
    ]);
    expect(eq[0]).toMatchObject({ q: Math.SQRT1_2, purpose: 'rumble' });
    expect(eq[2]!.reason).toBe('Cut 2 dB around 1 kHz to make room for "Lead Vox.wav"');
    const lead = planEq(group('vocal', { presenceSetting: 'LEAD', analysis: analysis(-20, {}, -40) }), []);
    expect(lead[0]).toMatchObject({ type: 'highpass', freqHz: Math.round(profileOf('vocal').highpassHz * 0.8) });
  });

  it("lets a measured harshness cut take the place of the vocal's usual presence boost next to it", () => {
    const eq = planEq(track('Lead Vox.wav', { analysis: analysis(-20, { 3150: -15 }, -20) }), []);
    expect(eq.filter((d) => d.purpose === 'presence')).toEqual([]);
    expect(eq.find((d) => d.purpose === 'harshness')).toMatchObject({
      freqHz: 3150,
      gainDb: -3,
      basis: 'measured',
      replaces: { purpose: 'presence', freqHz: 3000, gainDb: 1.5 },
    });
  });
});

describe('reverb sends and bus glue', () => {
  it("sends nothing for NONE; otherwise the preference's level plus the group's trim (less for the low end)", () => {
    expect(reverbSendOf(resolveSettings('vocal.wav', { reverbPreference: 'NONE' }))).toBeNull();
    const send = (instrumentGroup: InstrumentGroup, reverbPreference: 'LOW' | 'MEDIUM' | 'HIGH') =>
      reverbSendOf(resolveSettings('x.wav', { instrumentGroup, reverbPreference }));
    expect([send('vocal', 'LOW'), send('vocal', 'MEDIUM'), send('vocal', 'HIGH')]).toEqual([-18, -12, -7]);
    expect(send('kick', 'MEDIUM')).toBe(-24);
    expect(send('bass', 'HIGH')).toBe(-19);
    expect(send('strings', 'HIGH')).toBe(-5);
  });

  it('glues the bus gently for every style, the acoustic and orchestral ones least', () => {
    for (const { ratio, depthDb } of Object.values(GLUE)) {
      expect(ratio).toBeGreaterThanOrEqual(1.5);
      expect(ratio).toBeLessThanOrEqual(3);
      expect(depthDb).toBeLessThanOrEqual(3);
    }
    const lightest = Math.min(...Object.values(GLUE).map((g) => g.depthDb));
    expect(GLUE.ORCHESTRAL.depthDb).toBe(lightest);
    expect(GLUE.ACOUSTIC.depthDb).toBeLessThan(GLUE.POP.depthDb);
  });
});
