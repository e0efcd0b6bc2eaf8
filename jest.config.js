/** ESM Jest set-up: NestJS 12 ships ESM only, so tests run as ES modules through ts-jest. */
const project = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
const run = {
  testTimeout: 30000,
  // ESM test files (vm modules) are not freed between files: a worker that has grown past this is
  // replaced after its file, so a long run keeps its speed instead of slowing down in garbage
  // collection as the heap fills.
  workerIdleMemoryLimit: '1200MB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};

/**
 * npm test (test/run-all.sh) sets TEST_POSTGRES_PASS_URL: one Jest run then holds both passes as
 * two projects sharing its workers, so whichever pass has files left gets every worker, and
 * both end together. The SQLite pass runs every test; the PostgreSQL pass the e2e tests but
 * SQLITE_PASS_ONLY. Each project sets TEST_DATABASE_URL for its files (test/support/pass-database.js).
 * Without it, the suite runs on the database TEST_DATABASE_URL names, or on SQLite files.
 */
const postgresPassUrl = process.env.TEST_POSTGRES_PASS_URL;
/**
 * E2e specs that reach no database of the run, so a PostgreSQL pass would repeat the SQLite one:
 * the browser specs (the page's JavaScript against the HTTP API, tested on both databases by the
 * other folders), the OpenAPI document (built on an in-memory SQLite whatever the run's database),
 * the schema arbitraries and docs/api.md's examples (checked against that document, no app), and
 * the build-if-changed step (a small project of its own).
 */
const SQLITE_PASS_ONLY = [
  '<rootDir>/test/e2e/web/',
  '<rootDir>/test/e2e/http/openapi.e2e-spec.ts',
  '<rootDir>/test/e2e/http/schema-arbitrary.e2e-spec.ts',
  '<rootDir>/test/e2e/http/api-doc-examples.e2e-spec.ts',
  '<rootDir>/test/e2e/run/build-if-changed.e2e-spec.ts',
];
const passes = [
  {
    ...project,
    displayName: { name: 'sqlite', color: 'blue' },
    globals: { passDatabaseUrl: '' },
    setupFiles: ['<rootDir>/test/support/pass-database.js'],
  },
  {
    ...project,
    displayName: { name: 'postgres', color: 'magenta' },
    testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', ...SQLITE_PASS_ONLY],
    globals: { passDatabaseUrl: postgresPassUrl },
    setupFiles: ['<rootDir>/test/support/pass-database.js'],
  },
];

export default postgresPassUrl ? { ...run, projects: passes } : { ...project, ...run };
