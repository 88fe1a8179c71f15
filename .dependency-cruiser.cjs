/**
 * The architecture's boundaries, checked on every `npm test` (see docs/architecture.md).
 * A module reaches another only through its public entry (Nest module and commands) or its contracts;
 * the audio engine and the kernel's core stay free of any framework.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No cycle at all, type-only imports included: a cycle of types is still a knot in the design.',
      severity: 'error',
      from: { pathNot: 'node_modules' },
      to: { circular: true },
    },
    {
      name: 'audio-engine-is-pure',
      comment: 'modules/audio-engine is a pure DSP library: no framework, no other workspace.',
      severity: 'error',
      from: { path: '^modules/audio-engine/' },
      to: {
        path: [
          'node_modules/@nestjs/',
          'node_modules/express',
          'node_modules/(@fastify/|fastify)',
          '^(backend|projections|web)/',
          '^modules/(?!audio-engine/)',
        ],
      },
    },
    {
      name: 'kernel-core-is-framework-free',
      comment: 'Only modules/kernel/src/nest may import Nest; the rest of the kernel is plain TypeScript.',
      severity: 'error',
      from: { path: '^modules/kernel/src/(?!nest/)' },
      to: { path: ['node_modules/@nestjs/', 'node_modules/(@fastify/|fastify)', '^modules/kernel/src/nest/'] },
    },
    {
      name: 'domain-is-framework-free',
      comment: 'Deciders, events and errors in domain/ carry no framework.',
      severity: 'error',
      from: { path: '^modules/[^/]+/src/domain/' },
      to: { path: ['node_modules/@nestjs/', 'node_modules/express', 'node_modules/(@fastify/|fastify)'] },
    },
    {
      name: 'contracts-are-plain',
      comment:
        'modules/contracts (@kora/contracts) is what the server and the web client both speak: plain types and ' +
        'constants, no package, no other workspace but the audio engine’s vocabulary (its types and error codes).',
      severity: 'error',
      from: { path: '^modules/contracts/' },
      to: {
        path: ['node_modules/', '^(backend|projections|web)/', '^modules/(?!contracts/)'],
        pathNot: ['^modules/audio-engine/src/(types|errors)\\.ts$'],
      },
    },
    {
      name: 'modules-only-through-contracts',
      comment: 'A module may use another only through its index (Nest module, commands) or its contracts/.',
      severity: 'error',
      from: { path: '^modules/([^/]+)/' },
      to: {
        path: '^modules/[^/]+/src/',
        pathNot: [
          '^modules/$1/',
          '^modules/kernel/',
          '^modules/[^/]+/src/index\\.ts$',
          '^modules/[^/]+/src/contracts/',
          // The engine's vocabulary, its package's `./types` and `./errors` entries (for @kora/contracts).
          '^modules/audio-engine/src/(types|errors)\\.ts$',
        ],
      },
    },
    {
      name: 'modules-do-not-know-the-app',
      severity: 'error',
      from: { path: '^modules/' },
      to: { path: '^(backend|projections|web)/' },
    },
    {
      name: 'projections-read-contracts-only',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: '^modules/(?!kernel/)[^/]+/src/', pathNot: '^modules/[^/]+/src/contracts/' },
    },
    {
      name: 'backend-uses-public-entries',
      severity: 'error',
      from: { path: '^backend/src/' },
      to: {
        path: '^modules/[^/]+/src/',
        pathNot: [
          '^modules/[^/]+/src/index\\.ts$',
          '^modules/[^/]+/src/contracts/',
          '^modules/kernel/src/nest/index\\.ts$',
        ],
      },
    },
    {
      name: 'web-is-a-client',
      comment:
        'The web client talks to the server over HTTP and Socket.IO only, in the words of @kora/contracts: ' +
        'that package is the one thing of the server side it imports.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(backend|modules|projections)/', pathNot: '^modules/contracts/src/index\\.ts$' },
    },
    {
      name: 'web-features-are-independent',
      comment:
        'A web feature never imports another (web/src/features/<a>/ -> web/src/features/<b>/): the app composes ' +
        'features (app/), and what two features share lives in web/src/lib, web/src/components or web/src/hooks. ' +
        'No exception is listed today; one would go in pathNot below, with the reason beside it (docs/web.md).',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: ['^web/src/features/$1/'] },
    },
    {
      name: 'testing-kit-only-in-tests',
      comment: 'The testing kit (@kora/kernel/testing) serves specs: production code never imports it.',
      severity: 'error',
      from: { pathNot: ['\\.(spec|test)\\.tsx?$', '(^|/)test/', '^modules/kernel/src/testing/'] },
      to: { path: '^modules/kernel/src/testing/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['development', 'types', 'import', 'require', 'node', 'default'],
      mainFields: ['types', 'main'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
