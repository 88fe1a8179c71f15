import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { FakeAudioContext, fakeAudio, type FakeSource } from '../../../components/board/test/fakeAudioContext';
import en from '../../../locales/en/mixing.json';
import type { MixingBoardProps } from './MixingBoard';

const surfers: unknown[] = [];
jest.mock('wavesurfer.js', () => ({
  __esModule: true,
  default: {
    create: (options: Record<string, unknown>) => {
      const surfer = { options, setTime: jest.fn(), destroy: jest.fn(), on: jest.fn() };
      surfers.push(surfer);
      return surfer;
    },
  },
}));
jest.mock('../../../components/board/board.css', () => ({}));
jest.mock('./mixing.css', () => ({}));
let MixingBoard: typeof import('./MixingBoard').MixingBoard;

const LENGTHS: Record<string, number> = { mix: 8, k: 3, v: 4, b: 5 };
const ROWS: MixingBoardProps['rows'] = [
  { trackId: 'k', name: 'Kick 808.wav', type: 'kick', url: '/s/original-k' },
  { trackId: 'v', name: 'lead vocal.wav', type: 'vocal', url: '/s/original-v' },
  { trackId: 'mix', name: 'Dakar nights', type: 'mix', url: '/s/preview' },
  {
    trackId: 'b',
    name: 'bass line.wav',
    type: 'bass',
    url: '/s/original-b',
    mixer: {
      gainDb: -2.5,
      targetLufs: -20,
      eq: [{ type: 'highpass', freqHz: 40, gainDb: 0, q: 0.71, reason: 'bass high-pass' }],
      compression: { thresholdDb: -20, ratio: 4, attackMs: 10, releaseMs: 100, meanReductionDb: 3.2 },
      pan: { position: -0.35, width: 0.7, reason: '' },
      reverbSendDb: null,
    },
  },
];

function setup(overrides: Partial<MixingBoardProps> = {}) {
  const fetchAudio = jest.fn(async (url: string) => {
    const id = url.endsWith('preview') ? 'mix' : url.split('-').at(-1)!;
    return fakeAudio(LENGTHS[id] ?? 1);
  });
  render(
    <MixingBoard
      sessionId="s1"
      name="Dakar nights"
      unlocked={false}
      rows={ROWS}
      fetchAudio={fetchAudio}
      {...overrides}
    />,
  );
  return { fetchAudio };
}

async function loaded(rows: number) {
  await act(async () => {
    for (let i = 0; i < 10 && surfers.length < rows; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  expect(surfers).toHaveLength(rows);
}

const context = () => FakeAudioContext.instances.at(-1) as FakeAudioContext;
const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');
const gains = () =>
  Object.fromEntries(
    context()
      .playing()
      .map((source: FakeSource) => [
        Object.keys(LENGTHS).find((id) => LENGTHS[id] === source.buffer?.duration),
        source.output?.gain.value,
      ]),
  );

beforeAll(async () => {
  ({ MixingBoard } = await import('./MixingBoard'));
  i18n.addResourceBundle('en', 'mixing', en, true, true);
});
beforeEach(() => {
  surfers.length = 0;
  FakeAudioContext.instances.length = 0;
  Object.defineProperty(window, 'AudioContext', { value: FakeAudioContext, configurable: true, writable: true });
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
});
afterEach(() => {
  delete (window as { AudioContext?: unknown }).AudioContext;
});

describe('MixingBoard', () => {
  it('titles the preview, puts the FINAL MIX row first and keeps Download All off until unlocked', async () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Preview Mix: Dakar nights' })).toBeTruthy();
    const rows = screen.getAllByRole('listitem').filter((row) => row.hasAttribute('data-row'));
    expect(rows.map((row) => row.getAttribute('data-row'))).toEqual(['final', 'k', 'v', 'b']);
    expect(rows[0]?.textContent).toContain('FINAL MIX');
    await loaded(4);
    const download = screen.getByRole('button', { name: 'Download All' }) as HTMLButtonElement;
    expect(download.disabled).toBe(true);
    expect(download.getAttribute('aria-describedby')).toBeTruthy();
    // The mixer's decisions for the bass.
    expect(screen.getByText('High-pass at 40 Hz')).toBeTruthy();
    expect(screen.getByText('35 % left')).toBeTruthy();
    expect(screen.getByText('-2.5 dB')).toBeTruthy();
  });

  it('solos, un-solos and mutes by the spec rules, and the engine plays accordingly', async () => {
    const user = userEvent.setup();
    setup();
    await loaded(4);
    await user.click(screen.getByRole('button', { name: 'Play' }));
    expect(gains()).toEqual({ mix: 0, k: 1, v: 1, b: 1 });

    await user.click(screen.getByRole('button', { name: 'Solo lead vocal.wav' }));
    expect(pressed('Mute lead vocal.wav')).toBe('false');
    for (const name of ['Kick 808.wav', 'bass line.wav']) expect(pressed(`Mute ${name}`)).toBe('true');
    expect(gains()).toEqual({ mix: 0, k: 0, v: 1, b: 0 });

    // Soloing another moves the solo; un-soloing unmutes all others.
    await user.click(screen.getByRole('button', { name: 'Solo Kick 808.wav' }));
    expect(pressed('Solo lead vocal.wav')).toBe('false');
    expect(pressed('Mute lead vocal.wav')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Solo Kick 808.wav' }));
    expect(gains()).toEqual({ mix: 0, k: 1, v: 1, b: 1 });

    // Unmuting a soloed track clears solo on the others.
    await user.click(screen.getByRole('button', { name: 'Solo bass line.wav' }));
    await user.click(screen.getByRole('button', { name: 'Mute bass line.wav' }));
    await user.click(screen.getByRole('button', { name: 'Mute bass line.wav' }));
    expect(pressed('Solo bass line.wav')).toBe('true');
    expect(pressed('Mute bass line.wav')).toBe('false');

    // A row's own play button plays it alone; Reset gives every row back.
    await user.click(screen.getByRole('button', { name: 'Play FINAL MIX alone' }));
    expect(gains()).toEqual({ mix: 1, k: 0, v: 0, b: 0 });
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    for (const name of ['Kick 808.wav', 'lead vocal.wav', 'bass line.wav']) {
      expect(pressed(`Mute ${name}`)).toBe('false');
      expect(pressed(`Solo ${name}`)).toBe('false');
    }
  });

  it('plays the audible tracks without the final mix under them, and the final mix alone as the A/B choice', async () => {
    const user = userEvent.setup();
    setup();
    await loaded(4);
    const final = screen.getAllByRole('listitem').find((row) => row.getAttribute('data-row') === 'final');
    // The final mix is the reference, not a channel of the sum: its own play, no mute, solo or volume.
    expect(
      within(final as HTMLElement)
        .queryAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Play FINAL MIX alone']);
    expect(within(final as HTMLElement).queryByRole('slider')).toBeNull();
    const listen = within(screen.getByRole('group', { name: 'Listen to' }));
    expect(listen.getByRole('button', { name: 'Tracks' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Play' }));
    await user.click(screen.getByRole('button', { name: 'Mute lead vocal.wav' }));
    expect(gains()).toEqual({ mix: 0, k: 1, v: 0, b: 1 });
    await user.click(listen.getByRole('button', { name: 'Final mix' }));
    expect(gains()).toEqual({ mix: 1, k: 0, v: 0, b: 0 });
    await user.click(listen.getByRole('button', { name: 'Tracks' }));
    expect(gains()).toEqual({ mix: 0, k: 1, v: 0, b: 1 });

    // A track played alone, then the switch: play is the board again, on the choice.
    await user.click(screen.getByRole('button', { name: 'Play Kick 808.wav alone' }));
    expect(gains()).toEqual({ mix: 0, k: 1, v: 0, b: 0 });
    await user.click(listen.getByRole('button', { name: 'Final mix' }));
    expect(gains()).toEqual({ mix: 1, k: 0, v: 0, b: 0 });
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    // Reset goes back to the tracks.
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(listen.getByRole('button', { name: 'Tracks' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the final title and enables Download All once unlocked', async () => {
    setup({ unlocked: true });
    expect(screen.getByRole('heading', { name: 'Final Mix: Dakar nights' })).toBeTruthy();
    await loaded(4);
    expect((screen.getByRole('button', { name: 'Download All' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText(/30-second preview/)).toBeNull();
  });

  it('says so when no row could be fetched', async () => {
    render(
      <MixingBoard
        sessionId="s2"
        name="Empty"
        unlocked={false}
        rows={ROWS}
        fetchAudio={async () => {
          throw new Error('Failed to load track (404)');
        }}
      />,
    );
    await act(async () => {
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByRole('alert').textContent).toBe('No valid source track found for preview.');
    expect(screen.getAllByText('Failed to load track')).toHaveLength(4);
  });
});
