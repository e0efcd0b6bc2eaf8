import { MemoryStore } from 'express-rate-limit';
import { loadConfig } from '../config/app-config.js';
import type { RateLimitsService } from '../rate-limits/rate-limits.service.js';
import { TooManyRequestsError } from '../rate-limits/too-many-requests.error.js';
import { AuthFailureLimit } from './auth-failure-limit.js';

/** The counters of one process (what SQLite uses). */
const inMemory = { store: () => new MemoryStore() } as unknown as RateLimitsService;

describe('AuthFailureLimit', () => {
  const limitOf = (perMinute: number) =>
    new AuthFailureLimit(loadConfig({ AUTH_FAILURES_PER_MINUTE: String(perMinute) }), inMemory);

  it('lets an address fail the limit times, then refuses it without looking at its key', async () => {
    const limit = limitOf(3);
    let checked = 0;
    const failing = async () => (checked++, undefined);
    for (let i = 0; i < 3; i++) expect(await limit.authenticate('203.0.113.7', failing)).toBeUndefined();
    await expect(limit.authenticate('203.0.113.7', failing)).rejects.toThrow(TooManyRequestsError);
    expect(checked).toBe(4);
    const good = async () => (checked++, 'api:alice');
    for (let i = 0; i < 5; i++) {
      const refused = await limit.authenticate('203.0.113.7', good).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TooManyRequestsError);
      expect((refused as TooManyRequestsError).retryAfterSeconds).toBeGreaterThan(0);
      expect((refused as TooManyRequestsError).retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    expect(checked).toBe(4);
    expect(await limit.authenticate('198.51.100.2', good)).toBe('api:alice');
  });

  it('never counts successes, and counts an IPv6 client as its /56, an IPv4-mapped one as its IPv4 address', async () => {
    const limit = limitOf(2);
    for (let i = 0; i < 10; i++)
      expect(await limit.authenticate('2001:db8:0:1::1', async () => 'api:bob')).toBe('api:bob');
    await limit.authenticate('2001:db8:0:1::1', async () => undefined);
    await limit.authenticate('2001:db8:0:2::9', async () => undefined);
    await expect(limit.authenticate('2001:db8:0:3::5', async () => undefined)).rejects.toThrow(TooManyRequestsError);
    expect(await limit.authenticate('2001:db8:1::1', async () => 'api:bob')).toBe('api:bob');
    // An IPv4 client of a dual-stack listener is still its own IPv4 address.
    await limit.authenticate('::ffff:203.0.113.7', async () => undefined);
    await limit.authenticate('203.0.113.7', async () => undefined);
    await expect(limit.authenticate('::ffff:203.0.113.7', async () => undefined)).rejects.toThrow(TooManyRequestsError);
    expect(await limit.authenticate('::ffff:203.0.113.8', async () => 'api:bob')).toBe('api:bob');
  });

  it('is off at AUTH_FAILURES_PER_MINUTE=0', async () => {
    const limit = limitOf(0);
    for (let i = 0; i < 100; i++)
      expect(await limit.authenticate('203.0.113.7', async () => undefined)).toBeUndefined();
  });
});
