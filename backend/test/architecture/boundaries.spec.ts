import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tempDir } from '../support/temp';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Proves the boundary rules fire: a miniature repository with one violation per rule, checked with the project's
 * own dependency-cruiser configuration.
 */
describe('architecture boundaries', () => {
  const dir = tempDir('kora-arch-');
  let report: Array<{ rule: { name: string }; from: string; to: string }>;

  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'preserve', moduleResolution: 'bundler', jsx: 'react-jsx' },
    }),
    'modules/kernel/src/index.ts': 'export const kernel = 1;\n',
    'modules/kernel/src/core.ts': "import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n",
    'modules/billing/src/index.ts': "export * from './contracts/events';\n",
    'modules/billing/src/contracts/events.ts': 'export const CreditSpent = 1;\n',
    'modules/billing/src/domain/ledger.ts':
      "import { Injectable } from '@nestjs/common';\nexport const y = Injectable;\n",
    'modules/billing/src/internal/secret.ts': 'export const secret = 1;\n',
    'modules/catalog/src/ok.ts':
      "import { CreditSpent } from '../../billing/src/contracts/events';\nimport { kernel } from '../../kernel/src/index';\nexport const ok = [CreditSpent, kernel];\n",
    'modules/catalog/src/bad.ts':
      "import { secret } from '../../billing/src/internal/secret';\nexport const bad = secret;\n",
    'modules/catalog/src/app.ts': "import { main } from '../../../backend/src/main';\nexport const app = main;\n",
    'modules/audio-engine/src/dsp.ts':
      "import { Module } from '@nestjs/common';\nimport { kernel } from '../../kernel/src/index';\nexport const dsp = [Module, kernel];\n",
    'backend/src/main.ts':
      "import { secret } from '../../modules/billing/src/internal/secret';\nexport const main = secret;\n",
    'projections/src/p.ts':
      "import { secret } from '../../modules/billing/src/internal/secret';\nexport const p = secret;\n",
    'web/src/w.ts': "import { main } from '../../backend/src/main';\nexport const w = main;\n",
    'web/src/speaks.ts': "import { codes } from '../../modules/contracts/src/index';\nexport const s = codes;\n",
    'web/src/reaches.ts':
      "import { CreditSpent } from '../../modules/billing/src/contracts/events';\nexport const r = CreditSpent;\n",
    'modules/contracts/src/index.ts':
      "import { STYLES } from '../../audio-engine/src/types';\nexport const codes = [STYLES];\n",
    'modules/contracts/src/framework.ts':
      "import { Injectable } from '@nestjs/common';\nimport { kernel } from '../../kernel/src/index';\nexport const f = [Injectable, kernel];\n",
    'modules/audio-engine/src/types.ts': 'export const STYLES = 1;\n',
    'web/src/features/library/components/Button.tsx': 'export const Button = 1;\n',
    'web/src/features/studio/model/rules.ts': 'export const rules = 1;\n',
    'web/src/features/studio/components/Page.tsx':
      "import { Button } from '../../library/components/Button';\nimport { rules } from '../model/rules';\nexport const Page = [Button, rules];\n",
    'web/src/app/router.tsx':
      "import { Button } from '../features/library/components/Button';\nimport { Page } from '../features/studio/components/Page';\nexport const router = [Button, Page];\n",
    'modules/kernel/src/testing/index.ts': 'export const given = 1;\n',
    'modules/catalog/src/uses-kit.ts':
      "import { given } from '../../kernel/src/testing/index';\nexport const g = given;\n",
    'modules/catalog/src/kit.spec.ts':
      "import { given } from '../../kernel/src/testing/index';\nexport const g = given;\n",
    'modules/cycle/src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
    'modules/cycle/src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    'modules/cycle/src/c.ts': "import type { D } from './d';\nexport interface C {\n  d?: D;\n}\n",
    'modules/cycle/src/d.ts': "import type { C } from './c';\nexport interface D {\n  c?: C;\n}\n",
  };

  beforeAll(() => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir.path, path)), { recursive: true });
      writeFileSync(join(dir.path, path), content);
    }
    symlinkSync(join(ROOT, 'node_modules'), join(dir.path, 'node_modules'));
    let output: string;
    try {
      output = execFileSync(
        join(ROOT, 'node_modules', '.bin', 'depcruise'),
        [
          '--config',
          join(ROOT, '.dependency-cruiser.cjs'),
          '--output-type',
          'json',
          'backend',
          'modules',
          'projections',
          'web',
        ],
        { cwd: dir.path, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch (error) {
      output = (error as { stdout: string }).stdout; // violations make the command fail
    }
    report = JSON.parse(output).summary.violations;
  });
  afterAll(() => dir.cleanup());

  const violations = (rule: string): string[] =>
    report.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);

  it('lets a module use another only through its index or contracts', () => {
    expect(violations('modules-only-through-contracts')).toEqual([
      'modules/catalog/src/bad.ts -> modules/billing/src/internal/secret.ts',
    ]);
  });

  it('keeps the audio engine free of frameworks and of other workspaces', () => {
    expect(violations('audio-engine-is-pure').map((v) => v.split(' -> ')[1])).toEqual(
      expect.arrayContaining([expect.stringMatching(/@nestjs\/common/), 'modules/kernel/src/index.ts']),
    );
  });

  it('keeps domain code and the kernel core free of Nest', () => {
    expect(violations('domain-is-framework-free')).toHaveLength(1);
    expect(violations('kernel-core-is-framework-free')[0]).toMatch(/^modules\/kernel\/src\/core\.ts -> .*@nestjs/);
  });

  it('keeps modules, projections, the backend and the web client in their lanes', () => {
    expect(violations('modules-do-not-know-the-app')).toEqual(['modules/catalog/src/app.ts -> backend/src/main.ts']);
    expect(violations('projections-read-contracts-only')).toEqual([
      'projections/src/p.ts -> modules/billing/src/internal/secret.ts',
    ]);
    expect(violations('backend-uses-public-entries')).toEqual([
      'backend/src/main.ts -> modules/billing/src/internal/secret.ts',
    ]);
    expect(violations('web-is-a-client')).toEqual([
      'web/src/reaches.ts -> modules/billing/src/contracts/events.ts',
      'web/src/w.ts -> backend/src/main.ts',
    ]);
  });

  it('lets the web client import the contracts package, which stays plain', () => {
    expect(report.filter((v) => v.from === 'web/src/speaks.ts')).toEqual([]);
    expect(report.filter((v) => v.from === 'modules/contracts/src/index.ts')).toEqual([]);
    expect(violations('contracts-are-plain')).toEqual([
      expect.stringMatching(/^modules\/contracts\/src\/framework\.ts -> .*@nestjs/),
      'modules/contracts/src/framework.ts -> modules/kernel/src/index.ts',
    ]);
  });

  it('keeps each web feature to itself, and lets the app compose them', () => {
    expect(violations('web-features-are-independent')).toEqual([
      'web/src/features/studio/components/Page.tsx -> web/src/features/library/components/Button.tsx',
    ]);
    expect(report.filter((v) => v.from === 'web/src/app/router.tsx')).toEqual([]);
  });

  it('keeps the testing kit out of production code, and lets specs use it', () => {
    expect(violations('testing-kit-only-in-tests')).toEqual([
      'modules/catalog/src/uses-kit.ts -> modules/kernel/src/testing/index.ts',
    ]);
    expect(report.filter((v) => v.from === 'modules/catalog/src/kit.spec.ts')).toEqual([]);
  });

  it('finds dependency cycles, type-only ones included', () => {
    expect(violations('no-circular')).toEqual([
      'modules/cycle/src/a.ts -> modules/cycle/src/b.ts',
      'modules/cycle/src/c.ts -> modules/cycle/src/d.ts',
    ]);
  });

  it('finds nothing wrong in the allowed imports', () => {
    expect(report.filter((v) => v.from === 'modules/catalog/src/ok.ts')).toEqual([]);
  });
});
