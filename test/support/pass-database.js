/**
 * Set-up of each test file in npm test's Jest run (jest.config.js, one project per database): the
 * database the file's apps use, read by test/support/test-app.ts. Jest gives each test file a copy
 * of process.env, so the two passes' files share workers without sharing this setting.
 */
process.env.TEST_DATABASE_URL = globalThis.passDatabaseUrl;
