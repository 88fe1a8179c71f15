import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { MixSetup } from './MixSetup';

jest.mock('./mixing.css', () => ({}));

const wav = (name: string) => new File([new Uint8Array(2048)], name, { type: 'audio/wav' });
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

function setup(checkServer = async () => true) {
  const requests: string[] = [];
  fakeServer({
    'GET /api/user/profile': () => ({ status: 404, body: {} }),
    'POST /api/mixing/sessions/create': (request) => {
      requests.push('create');
      return { status: 201, body: { session: { id: 's1', ...(request.body as object), tracks: [] } } };
    },
  });
  const onCreated = jest.fn();
  renderRoutes([{ path: '/', element: <MixSetup onCreated={onCreated} checkServer={checkServer} /> }], { path: '/' });
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  const choose = async (...files: File[]) => {
    fireEvent.change(input, { target: { files } });
    await settle();
  };
  return { choose, onCreated, requests };
}

describe('the mixing upload card', () => {
  it('starts with "My Mix", needs a name (cleared on typing) and two files before anything is sent', async () => {
    const { choose, requests } = setup();
    const name = screen.getByLabelText('Mix name') as HTMLInputElement;
    expect(name.value).toBe('My Mix');
    expect(screen.getByText('0 of 5 files')).toBeTruthy();
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start mixing' }));
    await settle();
    expect(screen.getByText('Give your mix a name.')).toBeTruthy();
    expect(screen.getByText('Add at least 2 files to make a mix.')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Dakar' } });
    expect(screen.queryByText('Give your mix a name.')).toBeNull();
    await choose(wav('kick.wav'));
    fireEvent.click(screen.getByRole('button', { name: 'Start mixing' }));
    await settle();
    expect(screen.getByText('Add at least 2 files to make a mix.')).toBeTruthy();
    expect(requests).toEqual([]);
  });

  it('takes WAV only, five at most, guessing each group from the name', async () => {
    const { choose } = setup();
    await choose(wav('Kick 808.wav'), new File([new Uint8Array(10)], 'song.mp3', { type: 'audio/mpeg' }));
    expect(screen.getByText('Mixing takes WAV files only.')).toBeTruthy();
    expect(screen.getByText('1 of 5 files')).toBeTruthy();
    await choose(...['lead vocal', 'bass', 'piano', 'fx riser', 'strings'].map((n) => wav(`${n}.wav`)));
    expect(screen.getByText('A mix takes at most 5 files.')).toBeTruthy();
    expect(screen.getByText('5 of 5 files')).toBeTruthy();
    const groups = [...document.querySelectorAll('.mix-settings__track')].map(
      (row) => (row.querySelector('select') as HTMLSelectElement).value,
    );
    expect(groups).toEqual(['kick', 'vocal', 'bass', 'keys', 'fx']);
    expect((screen.getByLabelText('Musical style') as HTMLSelectElement).value).toBe('POP');
    expect((screen.getByLabelText('Sample rate') as HTMLSelectElement).value).toBe('44100');
  });

  it('takes the "WAV files only" message away once valid WAVs are added, an earlier one among them', async () => {
    const { choose } = setup();
    await choose(wav('kick.wav'), new File([new Uint8Array(10)], 'song.mp3', { type: 'audio/mpeg' }));
    expect(screen.getByText('Mixing takes WAV files only.')).toBeTruthy();
    await choose(wav('kick.wav'), wav('bass.wav'));
    expect(screen.queryByText('Mixing takes WAV files only.')).toBeNull();
    expect(screen.getByText('2 of 5 files')).toBeTruthy();
  });

  it('refuses files while the server is unavailable', async () => {
    const { choose } = setup(async () => false);
    await choose(wav('kick.wav'), wav('bass.wav'));
    expect(screen.getByText('The server is not available right now. Please try again in a moment.')).toBeTruthy();
    expect(screen.getByText('0 of 5 files')).toBeTruthy();
  });
});
