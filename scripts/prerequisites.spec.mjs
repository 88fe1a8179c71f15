import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS, missingOn, plan, readOsRelease } from './prerequisites.mjs';

const DEBIAN = readOsRelease('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\n');
const UBUNTU = readOsRelease('NAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n');
const MINT = readOsRelease('NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n');
const FEDORA = readOsRelease('NAME="Fedora Linux"\nID=fedora\n');

const byName = (...names) => [...REQUIREMENTS.test, ...REQUIREMENTS.engine].filter((r) => names.includes(r.name));
const decide = (missing, overrides = {}) =>
  plan({ missing: byName(...missing), os: DEBIAN, root: true, sudo: false, npmChromium: true, ...overrides });

describe('what the machine lacks', () => {
  it('checks commands on the PATH, the sound font file and the browser', () => {
    const probe = {
      onPath: (command) => command === 'ffmpeg' || command === 'sox',
      existsSync: () => false,
      systemChromium: () => undefined,
    };
    expect(missingOn(REQUIREMENTS.test, probe).map((r) => r.name)).toEqual(['chromium']);
    expect(missingOn(REQUIREMENTS.engine, probe).map((r) => r.name)).toEqual([
      'fluidsynth',
      'GM sound font',
      'espeak-ng',
    ]);
    const full = { onPath: () => true, existsSync: () => true, systemChromium: () => ({ path: '/usr/bin/chromium' }) };
    expect(missingOn([...REQUIREMENTS.test, ...REQUIREMENTS.engine], full)).toEqual([]);
  });

  it('reads the distribution from /etc/os-release', () => {
    expect(DEBIAN).toEqual({ id: 'debian', like: [] });
    expect(UBUNTU).toEqual({ id: 'ubuntu', like: ['debian'] });
    expect(MINT).toEqual({ id: 'linuxmint', like: ['ubuntu', 'debian'] });
  });
});

describe('what to do about it', () => {
  it('does nothing when nothing is missing', () => {
    expect(decide([])).toEqual({ action: 'none' });
  });

  it('as root on Debian, installs only the missing packages with apt-get, the browser from the system', () => {
    expect(decide(['ffmpeg', 'chromium'])).toEqual({
      action: 'install',
      packages: ['ffmpeg', 'chromium'],
      run: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'ffmpeg', 'chromium'],
      ],
    });
    expect(decide(['GM sound font', 'sox']).packages).toEqual(['fluid-soundfont-gm', 'sox']);
  });

  it('goes through sudo -n when it works without a password', () => {
    expect(decide(['ffmpeg'], { root: false, sudo: true }).run).toEqual([
      ['sudo', '-n', 'apt-get', 'update', '-qq'],
      ['sudo', '-n', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'ffmpeg'],
    ]);
  });

  it('without root or sudo, stops with the one command, and takes the npm-shipped Chromium meanwhile', () => {
    const stopped = decide(['ffmpeg', 'chromium', 'espeak-ng'], { root: false, sudo: false });
    expect(stopped).toEqual({ action: 'stop', message: expect.any(String) });
    expect(stopped.message).toContain('missing ffmpeg, espeak-ng');
    expect(stopped.message).toContain(
      "sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends ffmpeg espeak-ng'",
    );
    expect(decide(['chromium'], { root: false, sudo: false })).toEqual({ action: 'none', browser: 'npm' });
  });

  it('without root, sudo or the npm-shipped Chromium, names chromium in the command too', () => {
    const stopped = decide(['chromium'], { root: false, sudo: false, npmChromium: false });
    expect(stopped.message).toContain("apt-get install -y --no-install-recommends chromium'");
  });

  it("on Ubuntu, installs the rest with apt-get but never its snap-only chromium: npm's instead", () => {
    for (const os of [UBUNTU, MINT]) {
      expect(decide(['ffmpeg', 'chromium'], { os })).toMatchObject({
        action: 'install',
        packages: ['ffmpeg'],
        browser: 'npm',
      });
    }
    const stuck = decide(['chromium'], { os: UBUNTU, npmChromium: false });
    expect(stuck.action).toBe('stop');
    expect(stuck.message).toContain('CHROMIUM_PATH');
  });

  it('elsewhere, stops naming what to install with the system package manager', () => {
    const fedora = decide(['ffmpeg', 'chromium'], { os: FEDORA });
    expect(fedora.action).toBe('stop');
    expect(fedora.message).toContain('missing ffmpeg:');
    const mac = decide(['ffmpeg', 'fluidsynth', 'chromium'], { os: null, npmChromium: false });
    expect(mac.message).toMatch(/^missing ffmpeg, chromium, fluidsynth: install ffmpeg chromium fluidsynth /);
    expect(mac.message).toContain('CHROMIUM_PATH');
  });

  it('refuses an unknown set by name, exit code 2, before looking at the machine', () => {
    const script = fileURLToPath(new URL('./prerequisites.mjs', import.meta.url));
    const result = spawnSync(process.execPath, [script, 'everything'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown set everything (known: test, engine)');
  });
});
