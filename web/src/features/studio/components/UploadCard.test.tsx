import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, jest } from '@jest/globals';
import i18n from 'i18next';
import type { TrackOptions } from '@kora/contracts';
import { UploadCard } from './UploadCard';

const MB = 1024 * 1024;

/** A File of the given size without allocating it. */
function fakeFile(name: string, size: number, type: string): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

async function choose(file: File) {
  const inputs = document.querySelectorAll('.dropzone input[type=file]');
  const input = inputs[0] as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { files: [file] } });
  });
}

describe('the upload card', () => {
  const setup = (props: Partial<Parameters<typeof UploadCard>[0]> = {}) => {
    const onStart = jest.fn(async (_file: File, _fields: TrackOptions, _reference: File | null) => null);
    const checkServer = jest.fn(async () => true);
    render(
      <UploadCard service="AI_MASTERING" uploading={null} onStart={onStart} checkServer={checkServer} {...props} />,
    );
    return { onStart, checkServer };
  };

  it('says why a file is refused before sending it: size with the limit in MB, then format', async () => {
    const { onStart } = setup();
    const start = screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    await choose(fakeFile('tiny.wav', 10_000, 'audio/wav'));
    expect(screen.getByRole('alert').textContent).toBe('This file is too small: at least 1 MB.');
    await choose(fakeFile('huge.wav', 60 * MB, 'audio/wav'));
    expect(screen.getByRole('alert').textContent).toBe('This file is too large: at most 50 MB.');
    await choose(fakeFile('cover.png', 2 * MB, 'image/png'));
    expect(screen.getByRole('alert').textContent).toBe('Choose a WAV or MP3 audio file.');
    expect(start.disabled).toBe(true);
    expect(onStart).not.toHaveBeenCalled();
  });

  it('asks for a video with the video preset, and takes a good file with the chosen settings', async () => {
    const { onStart } = setup({ service: 'AUDIO_ENHANCEMENT' });
    fireEvent.click(screen.getByRole('button', { name: 'Video' }));
    await choose(fakeFile('song.wav', 2 * MB, 'audio/wav'));
    expect(screen.getByRole('alert').textContent).toBe('Choose an MP4, MPEG, MOV or M4V video.');
    await choose(fakeFile('clip.mp4', 2 * MB, 'video/mp4'));
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(onStart).toHaveBeenCalledWith(expect.any(File), { service: 'AUDIO_ENHANCEMENT', preset: 'video' }, null);
  });

  it('offers the five enhancement presets, each with a line on what it is for, and sends the one chosen', async () => {
    const { onStart } = setup({ service: 'AUDIO_ENHANCEMENT' });
    const group = screen.getByRole('group', { name: 'What are you enhancing?' });
    const names = [...group.querySelectorAll('button')].map((button) => button.textContent);
    expect(names).toEqual(['Voice', 'Music', 'Podcast', 'Audio', 'Video']);
    const lines = new Set<string>();
    for (const name of names) {
      const button = screen.getByRole('button', { name: name! });
      fireEvent.click(button);
      expect(button.getAttribute('aria-pressed')).toBe('true');
      const line = document.getElementById(button.getAttribute('aria-describedby')!)?.textContent ?? '';
      expect(line.length).toBeGreaterThan(20);
      lines.add(line);
    }
    expect(lines.size).toBe(5);
    fireEvent.click(screen.getByRole('button', { name: 'Podcast' }));
    await choose(fakeFile('episode.wav', 2 * MB, 'audio/wav'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(onStart).toHaveBeenCalledWith(expect.any(File), { service: 'AUDIO_ENHANCEMENT', preset: 'podcast' }, null);
  });

  /** The loudness target chosen among the radio buttons. */
  const chosenTarget = () =>
    screen
      .getAllByRole('radio')
      .map((radio) => radio as HTMLInputElement)
      .find((radio) => radio.checked)?.value;

  it('sends mastering’s intensity and loudness target', async () => {
    const { onStart } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Punchy' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Apple Music (−16 LUFS)' }));
    await choose(fakeFile('song.wav', 2 * MB, 'audio/wav'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(onStart).toHaveBeenCalledWith(
      expect.any(File),
      { service: 'AI_MASTERING', intensity: 'high', target: 'apple' },
      null,
    );
  });

  it('sends a reference track to match, aiming for its loudness unless a target is chosen', async () => {
    const { onStart } = setup();
    const referenceInput = document.querySelectorAll('input[type=file]')[0] as HTMLInputElement;
    await act(async () => {
      fireEvent.change(referenceInput, { target: { files: [fakeFile('cover.png', 2 * MB, 'image/png')] } });
    });
    expect(screen.getByRole('alert').textContent).toBe('The reference track must be a WAV or MP3 audio file.');
    const track = fakeFile('their-hit.mp3', 4 * MB, 'audio/mpeg');
    await act(async () => {
      fireEvent.change(referenceInput, { target: { files: [track] } });
    });
    expect(chosenTarget()).toBe('reference');
    const song = fakeFile('song.wav', 2 * MB, 'audio/wav');
    const fileInput = document.querySelectorAll('input[type=file]')[1] as HTMLInputElement;
    await act(async () => {
      fireEvent.change(fileInput, { target: { files: [song] } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(onStart).toHaveBeenLastCalledWith(song, { service: 'AI_MASTERING', intensity: 'medium' }, track);
  });

  it('lets a reference set the target without losing the pick, and gives the pick back when it is removed', async () => {
    const { onStart } = setup();
    fireEvent.click(screen.getByRole('radio', { name: 'Club and DJ sets (−9 LUFS)' }));
    const referenceInput = document.querySelectorAll('input[type=file]')[0] as HTMLInputElement;
    await act(async () => {
      fireEvent.change(referenceInput, { target: { files: [fakeFile('their-hit.mp3', 4 * MB, 'audio/mpeg')] } });
    });
    expect(chosenTarget()).toBe('reference');
    expect(screen.getByText(/^The loudness now follows the reference/).textContent).toBe(
      'The loudness now follows the reference. Remove it to go back to your choice: Club and DJ sets (−9 LUFS).',
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    });
    expect(chosenTarget()).toBe('club');
    expect(screen.queryByText(/^The loudness now follows the reference/)).toBeNull();
    await choose(fakeFile('song.wav', 2 * MB, 'audio/wav'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(onStart).toHaveBeenLastCalledWith(
      expect.anything(),
      { service: 'AI_MASTERING', intensity: 'medium', target: 'club' },
      null,
    );
  });

  it('refuses the file while the server is unavailable', async () => {
    setup({ checkServer: async () => false });
    await choose(fakeFile('song.wav', 2 * MB, 'audio/wav'));
    expect(screen.getByRole('alert').textContent).toBe(
      'The server is not available right now. Please try again in a minute.',
    );
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the server’s size refusal next to the file and other refusals as a banner', async () => {
    const onStart = jest
      .fn<
        (
          file: File,
          fields: TrackOptions,
          reference: File | null,
        ) => Promise<{ place: 'file' | 'banner'; key: string; limitMb?: number } | null>
      >()
      .mockResolvedValueOnce({ place: 'file', key: 'upload.errors.fileSizeMax', limitMb: 50 })
      .mockResolvedValueOnce({ place: 'banner', key: 'errors.alreadyProcessing' });
    setup({ onStart });
    await choose(fakeFile('song.wav', 2 * MB, 'audio/wav'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('This file is too large: at most 50 MB.');
    await choose(fakeFile('song.wav', 2 * MB, 'audio/wav'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'There is already a track being processed. Please wait for it to complete.',
    );
  });

  it('takes a file dropped on the zone, checked like a picked one', async () => {
    const { onStart } = setup({ service: 'STEM_SEPARATION' });
    fireEvent.click(screen.getByRole('button', { name: 'Drums' }));
    const zone = document.querySelector('.dropzone') as HTMLElement;
    await act(async () => {
      fireEvent.drop(zone, { dataTransfer: { files: [fakeFile('beat.mp3', 100, 'audio/mpeg')] } });
    });
    expect(screen.getByRole('alert').textContent).toBe('This file is too small: at least 1 MB.');
    await act(async () => {
      fireEvent.drop(zone, { dataTransfer: { files: [fakeFile('beat.mp3', 3 * MB, 'audio/mpeg')] } });
    });
    expect(screen.getByText('Ready: beat.mp3 (1 of 1 file)')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    });
    expect(onStart).toHaveBeenCalledWith(expect.any(File), { service: 'STEM_SEPARATION', mode: 'drums' }, null);
  });

  it('gives the demo and library buttons (the app’s) the options chosen on the card', () => {
    const sources = jest.fn((options: Record<string, string>) => <span>{JSON.stringify(options)}</span>);
    setup({ service: 'STEM_SEPARATION', sources });
    expect(screen.getByText('{"mode":"vocals"}')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Drums' }));
    expect(screen.getByText('{"mode":"drums"}')).toBeTruthy();
  });

  it('says what the sending does: bytes of the total, speed and time left, or paused for the network, in the reader’s language', async () => {
    const sending = {
      filename: 'sunu-gaal.wav',
      percent: 12,
      progress: {
        phase: 'sending' as const,
        done: 8_300_000,
        total: 45_000_000,
        bytesPerSecond: 250_000,
        remainingMs: 130_800,
      },
    };
    const { rerender } = render(
      <UploadCard service="AI_MASTERING" uploading={sending} onStart={jest.fn(async () => null)} />,
    );
    expect(screen.getByRole('status').textContent).toBe('8.3 MB of 45 MB sent · 250 kB/s · About 2:11 left');
    const paused = { ...sending, progress: { ...sending.progress, phase: 'paused' as const } };
    rerender(<UploadCard service="AI_MASTERING" uploading={paused} onStart={jest.fn(async () => null)} />);
    expect(screen.getByRole('status').textContent).toBe(
      'Paused: waiting for the network. The upload will continue by itself.',
    );
    await act(() => i18n.changeLanguage('fr'));
    try {
      rerender(<UploadCard service="AI_MASTERING" uploading={sending} onStart={jest.fn(async () => null)} />);
      expect(screen.getByRole('status').textContent?.replace(/\u202f|\u00a0/g, ' ')).toBe(
        '8,3 Mo sur 45 Mo envoyés · 250 ko/s · Environ 2:11 restantes',
      );
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
