import { describe, expect, it } from '@jest/globals';
import { uploadMessage } from './errors';

describe('an upload refusal, as the upload card shows it', () => {
  it('says a recording is too long with the service’s limit, and a lying sample rate by the file', () => {
    const tooLong = uploadMessage({
      status: 400,
      body: { code: 'UPLOAD.TOO_LONG', message: 'too long', details: { limitMinutes: 5 } },
    });
    expect(tooLong).toEqual({ place: 'file', key: 'upload.errors.tooLong', limitMinutes: 5 });
    expect(uploadMessage({ status: 400, body: { code: 'UPLOAD.SAMPLE_RATE', message: 'rate' } })).toEqual({
      place: 'file',
      key: 'upload.errors.sampleRate',
    });
    expect(
      uploadMessage({ status: 413, body: { code: 'UPLOAD.FILE_SIZE_MAX', message: 'big', details: { limitMb: 50 } } }),
    ).toEqual({ place: 'file', key: 'upload.errors.fileSizeMax', limitMb: 50 });
  });

  it('reads a file refused while it was sent (the Upload-Refusal header: a code and details, no message)', () => {
    expect(uploadMessage({ status: 400, body: { code: 'UPLOAD.FILE_SIZE_MIN', details: { limitMb: 1 } } })).toEqual({
      place: 'file',
      key: 'upload.errors.fileSizeMin',
      limitMb: 1,
    });
  });

  it('says a file cut short is damaged, by the file, not that it is the wrong kind', () => {
    expect(uploadMessage({ status: 400, body: { code: 'UPLOAD.DAMAGED_FILE', message: 'damaged' } })).toEqual({
      place: 'file',
      key: 'upload.errors.damagedFile',
    });
  });
});
