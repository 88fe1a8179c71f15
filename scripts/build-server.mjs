#!/usr/bin/env node
// Compiles the server-side workspaces (kernel, modules, projections, backend) from TypeScript to CommonJS with SWC,
// one `dist/` per package, keeping Nest's decorator metadata. Type checking is `npm run typecheck`'s job; this step
// only transpiles, so it takes a second or two. Files whose output is newer than their source are skipped.
import { transformFile } from '@swc/core';
import { copyFile, mkdir, readdir, stat, writeFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverSwcOptions } from './swc-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = [...(await readdir(join(root, 'modules'))).map((m) => join('modules', m)), 'projections', 'backend'];
const isTest = (file) => /\.(spec|test)\.ts$/.test(file) || file.includes(`${'/'}__fixtures__${'/'}`);
const assets = /\.(json|html|css|sql|svg|png|txt|ejs)$/;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

async function newer(src, out) {
  try {
    return (await stat(src)).mtimeMs > (await stat(out)).mtimeMs;
  } catch {
    return true;
  }
}

// What is compiled: each package's `src/` into its `dist/`, and the code that is not the product but runs against its
// build (benchmarks in `<package>/bench/`, the engine's evaluation in `eval/`) into `dist/bench/` and `dist/eval/`,
// its imports of `../src/...` pointed at `dist/`.
const trees = packages.flatMap((pkg) => [
  { src: join(root, pkg, 'src'), dist: join(root, pkg, 'dist'), clean: true },
  ...['bench', 'eval'].map((dir) => ({ src: join(root, pkg, dir), dist: join(root, pkg, 'dist', dir), fromSrc: true })),
]);
const toDist = (code) => code.replace(/require\("\.\.\/src\//g, 'require("../');

let compiled = 0;
for (const { src, dist, clean, fromSrc } of trees) {
  try {
    await stat(src);
  } catch {
    continue;
  }
  if (clean && process.argv.includes('--clean')) await rm(dist, { recursive: true, force: true });
  for await (const file of walk(src)) {
    const rel = relative(src, file);
    if (isTest(file)) continue;
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
      const out = join(dist, rel.replace(/\.ts$/, '.js'));
      if (!(await newer(file, out))) continue;
      const { code, map } = await transformFile(file, {
        ...serverSwcOptions,
        sourceFileName: relative(dirname(out), file),
      });
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, `${fromSrc ? toDist(code) : code}\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
      if (map) await writeFile(`${out}.map`, map);
      compiled += 1;
    } else if (assets.test(file)) {
      const out = join(dist, rel);
      if (!(await newer(file, out))) continue;
      await mkdir(dirname(out), { recursive: true });
      await copyFile(file, out);
    }
  }
}
if (!process.argv.includes('--quiet')) console.error(`build:server: ${compiled} file(s) compiled`);
