import { act, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import en from '../../../locales/en/mixing.json';
import fr from '../../../locales/fr/mixing.json';
import type { MixerDecisions } from '@kora/contracts';
import { MixerReport } from './MixerReport';

/** A lead vocal's decisions as the engine reports them (purposes, not English sentences, are what the client reads). */
const VOCAL: MixerDecisions = {
  gainDb: 1.2,
  targetLufs: -20,
  eq: [
    { type: 'highpass', freqHz: 72, gainDb: 0, q: 0.71, purpose: 'rumble', reason: '' },
    { type: 'highShelf', freqHz: 10000, gainDb: 1, q: 0.7, purpose: 'air', reason: '' },
    { type: 'peaking', freqHz: 3150, gainDb: -3, q: 1.4, purpose: 'harshness', reason: '' },
    { type: 'peaking', freqHz: 200, gainDb: -3.46, q: 1.4, purpose: 'masking', maskedBy: 'drums.wav', reason: '' },
    // A report from before purposes existed keeps the plain wording.
    { type: 'peaking', freqHz: 800, gainDb: 1, q: 1, reason: 'bass: definition on small speakers' },
  ],
  compression: null,
  pan: { position: 0, width: 1, reason: '' },
  reverbSendDb: null,
};

const items = () => screen.getAllByRole('listitem').map((item) => item.textContent);

beforeAll(() => {
  i18n.addResourceBundle('en', 'mixing', en, true, true);
  i18n.addResourceBundle('fr', 'mixing', fr, true, true);
});
afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('MixerReport EQ moves', () => {
  it('words each move as a musician reads it, in English', () => {
    render(<MixerReport decisions={VOCAL} name="Lead Vox.wav" />);
    expect(items()).toEqual([
      'High-pass at 72 Hz to remove rumble',
      'Boost 1 dB above 10 kHz to add air',
      'Cut 3 dB around 3.15 kHz to tame harshness',
      'Cut 3.5 dB around 200 Hz to make room for “drums.wav”',
      'Boost +1.0 dB at 800 Hz',
    ]);
  });

  it('and in French', async () => {
    await act(() => i18n.changeLanguage('fr'));
    render(<MixerReport decisions={VOCAL} name="Lead Vox.wav" />);
    expect(items()).toEqual([
      'Passe-haut à 72 Hz pour supprimer les grondements',
      'Accentuation de 1 dB au-dessus de 10 kHz pour apporter de l’air',
      'Atténuation de 3 dB autour de 3,15 kHz pour adoucir la dureté',
      'Atténuation de 3,5 dB autour de 200 Hz pour faire de la place à «\u00a0drums.wav\u00a0»',
      'Accentuation de +1,0 dB à 800 Hz',
    ]);
  });
});
