/**
 * A track's EQ moves made consistent and put into words.
 *
 * The mixer gathers moves from three sources: the group's usual moves (conventions), build-ups measured on the track
 * and masking cuts. Two of them can land close together and fight (a +1.5 dB presence boost at 3 kHz and a -3 dB
 * cut of a measured build-up at 3.15 kHz): two peaking filters that near each other act as one band, so the pair is
 * one decision at best and a contradiction at worst. Within a third of an octave (the analysis's own resolution),
 * moves are reconciled before anything is rendered:
 * - a move sized on this track (measured or masking) wins over the group's default: the default is dropped and
 *   recorded as `replaces` on the move that took its place (the measurement already sees the track as it is);
 * - two moves of the same standing in opposite directions become one, at the stronger move's frequency, with the
 *   sum of the gains (what the two bands amount to near their centres);
 * - two of the same standing in the same direction keep the stronger one (not both, which would double the move).
 * The high-pass is never merged.
 */
import type { EqDecision, EqPurpose } from './report';

/** Moves closer than this (octaves) are one decision. */
export const EQ_CLASH_OCTAVES = 1 / 3;

/** A move before wording: everything but `reason`. */
export type EqMove = Omit<EqDecision, 'reason'>;

const r2 = (v: number) => Math.round(v * 100) / 100;
const standing = (m: EqMove) => (m.basis === 'group' ? 1 : 0);
const octavesApart = (a: EqMove, b: EqMove) => Math.abs(Math.log2(a.freqHz / b.freqHz));

/** The moves with no two opposing or duplicate moves within EQ_CLASH_OCTAVES, in their original order. */
export function reconcileEq(moves: readonly EqMove[]): EqMove[] {
  const order = moves
    .map((move, index) => ({ move, index }))
    .sort(
      (a, b) =>
        standing(a.move) - standing(b.move) || Math.abs(b.move.gainDb) - Math.abs(a.move.gainDb) || a.index - b.index,
    );
  const kept: Array<{ move: EqMove; index: number }> = [];
  for (const entry of order) {
    const m = entry.move;
    const clash =
      m.type === 'highpass'
        ? undefined
        : kept.find((k) => k.move.type !== 'highpass' && octavesApart(k.move, m) < EQ_CLASH_OCTAVES);
    if (!clash) {
      kept.push({ move: { ...m }, index: entry.index });
      continue;
    }
    const k = clash.move;
    if (standing(k) < standing(m)) {
      k.replaces ??= { purpose: m.purpose, freqHz: m.freqHz, gainDb: m.gainDb };
    } else if (Math.sign(k.gainDb) !== Math.sign(m.gainDb)) {
      k.gainDb = r2(k.gainDb + m.gainDb);
    }
  }
  return kept
    .filter((k) => k.move.type === 'highpass' || Math.abs(k.move.gainDb) >= 0.05)
    .sort((a, b) => a.index - b.index)
    .map((k) => k.move);
}

/** "250 Hz", "3.15 kHz", "10 kHz" (the third-octave bands' nominal names). */
export function frequencyText(hz: number): string {
  if (hz < 1000) return `${Math.round(hz)} Hz`;
  return `${Math.round(hz / 10) / 100} kHz`;
}

const PURPOSE_TEXT: Record<Exclude<EqPurpose, 'masking'>, string> = {
  rumble: 'remove rumble',
  presence: 'bring the words forward',
  air: 'add air',
  'behind-lead': 'sit behind the lead vocal',
  definition: 'help it through small speakers',
  boxiness: 'reduce boxiness',
  click: 'bring out the beater click',
  body: 'add body',
  'vocal-room': 'leave room for the vocal',
  mud: 'clear up muddiness',
  harshness: 'tame harshness',
  boominess: 'reduce boominess',
};

/** The move in words, e.g. "Cut 3 dB around 3.1 kHz to tame harshness". */
export function describeEq(m: EqMove): string {
  const f = frequencyText(m.freqHz);
  if (m.type === 'highpass') return `High-pass at ${f} to ${PURPOSE_TEXT.rumble}`;
  const amount = `${m.gainDb < 0 ? 'Cut' : 'Boost'} ${Math.round(Math.abs(m.gainDb) * 10) / 10} dB`;
  const where = m.type === 'highShelf' ? `above ${f}` : m.type === 'lowShelf' ? `below ${f}` : `around ${f}`;
  const why = m.purpose === 'masking' ? `make room for "${m.maskedBy ?? 'another track'}"` : PURPOSE_TEXT[m.purpose];
  const instead = m.replaces
    ? ` (instead of the usual ${m.replaces.gainDb > 0 ? 'boost' : 'cut'} at ${frequencyText(m.replaces.freqHz)})`
    : '';
  return `${amount} ${where} to ${why}${instead}`;
}

/** The moves reconciled and worded, ready for the report and the filters. */
export function finalEq(moves: readonly EqMove[]): EqDecision[] {
  return reconcileEq(moves).map((m) => ({ ...m, reason: describeEq(m) }));
}
