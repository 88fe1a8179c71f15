import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { unsupportedRuntime } from '../../src/runtime/supported-runtime';
import { MAIN, USERS } from '../support/server-process';

describe('the Node.js Kora runs on', () => {
  it('needs Node-API 10 (Node 22.14 and later), and says in one line what to install otherwise', () => {
    expect(unsupportedRuntime('v24.21.0', '10')).toBeNull();
    expect(unsupportedRuntime('v26.12.1', '10')).toBeNull();
    expect(unsupportedRuntime('v22.14.0', '10')).toBeNull();
    for (const [version, napi] of [
      ['v20.20.2', '9'],
      ['v22.13.1', '9'],
      ['v18.20.0', undefined],
    ] as const) {
      const problem = unsupportedRuntime(version, napi);
      expect(problem).toContain(`this is Node.js ${version}`);
      expect(problem).toContain('22.14 or later');
      expect(problem).toContain('22, 24 or 26');
      expect(problem).not.toContain('\n');
    }
  });

  // The Node that started `npm test` (the machine's own: Debian 12 ships 20), when it is one Kora refuses.
  const outer = process.env.KORA_OUTER_NODE;
  const outerIsOld =
    outer !== undefined &&
    Number(execFileSync(outer, ['-p', 'process.versions.napi'], { encoding: 'utf8' }).trim()) < 10;
  (outerIsOld ? it : it.skip)(`refuses to start the server or a command line on ${outer ?? 'an old Node'}`, () => {
    for (const entry of [MAIN, USERS]) {
      const started = spawnSync(outer!, [entry, 'outbox'], { encoding: 'utf8', timeout: 10_000 });
      expect({ status: started.status, stdout: started.stdout }).toEqual({ status: 1, stdout: '' });
      const lines = started.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Kora needs Node\.js 22\.14 or later .*this is Node\.js v\d+\.\d+\.\d+: install one/);
    }
  });
});
