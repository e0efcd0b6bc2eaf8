/** ESM Jest set-up: NestJS 12 ships ESM only, so tests run as ES modules through ts-jest. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 30000,
  // ESM test files (vm modules) are not freed between files: a worker that has grown past this is
  // replaced after its file, so a long serial run (npm test: --maxWorkers=1) keeps its speed
  // instead of slowing down in garbage collection as the heap fills.
  workerIdleMemoryLimit: '1200MB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
