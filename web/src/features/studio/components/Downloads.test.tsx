import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, jest } from '@jest/globals';
import type { Track } from '@kora/contracts';
import { Downloads } from './Downloads';

const track = (overrides: Partial<Track>): Track => ({
  id: 't1',
  audioId: 't1',
  filename: 'Sunu gaal.wav',
  format: 'wav',
  service: 'AI_MASTERING',
  mode: null,
  preset: null,
  status: 'PREVIEW_READY',
  error: null,
  errorCode: null,
  progress: 1,
  createdAt: '2026-11-25T10:00:00.000Z',
  isDemo: false,
  isVideo: false,
  unlocked: false,
  creditsCost: 1,
  fileSize: 2_000_000,
  durationSec: 12,
  originalUrl: '/api/audio/track/t1/stream/original',
  previewUrl: '/api/audio/track/t1/stream/preview',
  masterUrl: null,
  stems: {},
  streamUrls: {
    original: '/api/audio/track/t1/stream/original',
    preview: '/api/audio/track/t1/stream/preview',
    master: null,
    stems: {},
  },
  ...overrides,
});

const renderDownloads = (value: Track) =>
  render(
    <MemoryRouter>
      <Downloads track={value} fetchAudio={jest.fn(async () => new Blob())} />
    </MemoryRouter>,
  );

describe('downloads', () => {
  it('are locked with the reason and the plans link until the track is unlocked', () => {
    renderDownloads(track({}));
    expect(screen.getByText(/Downloads are locked until this track is unlocked/)).toBeTruthy();
    for (const name of ['WAV 44.1 kHz / 16-bit', 'WAV 48 kHz / 24-bit']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
    expect(screen.getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe(
      '/accountSettings?section=plans&service=AI_MASTERING#plansSection',
    );
  });

  it('offer both WAV masters once unlocked (one file for enhancement)', () => {
    const { unmount } = renderDownloads(
      track({ unlocked: true, status: 'MASTER_READY', masterUrl: '/api/audio/track/t1/stream/master' }),
    );
    for (const name of ['WAV 44.1 kHz / 16-bit', 'WAV 48 kHz / 24-bit']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(false);
    }
    expect(screen.queryByRole('link', { name: 'See the plans' })).toBeNull();
    unmount();
    renderDownloads(
      track({
        service: 'AUDIO_ENHANCEMENT',
        unlocked: true,
        status: 'COMPLETED',
        masterUrl: '/api/audio/track/t1/stream/master',
      }),
    );
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Enhanced file']);
  });

  it('save the enhanced video in its own container', async () => {
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    renderDownloads(
      track({
        service: 'AUDIO_ENHANCEMENT',
        isVideo: true,
        format: 'mov',
        filename: 'Interview.mov',
        unlocked: true,
        status: 'COMPLETED',
        masterUrl: '/api/audio/track/t1/stream/master',
      }),
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Enhanced video' }));
    });
    expect(clicked).toEqual(['Interview_enhanced.mov']);
  });
});
