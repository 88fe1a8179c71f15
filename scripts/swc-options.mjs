// How server code is compiled, in one place: the build (`scripts/build-server.mjs`) and the tests (`jest.config.mjs`)
// use the same options, so Nest's decorator metadata and the class names the tests see are the ones that ship.

/** @type {import('@swc/core').Options} */
export const serverSwcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  // `import()` stays as written: ESM-only packages (oidc-provider) are loaded by Node, not turned into `require`.
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: true,
};
