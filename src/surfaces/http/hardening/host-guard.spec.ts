import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import request from 'supertest';
import { loadConfig } from '../../../config/app-config.js';
import { hostGuard } from './host-guard.js';

/** The guard in front of a handler that answers 200, with a count of the stored-key look-ups. */
function appWith(env: Record<string, string>, isSingleUser: () => Promise<boolean>) {
  const lookups = { count: 0 };
  // The Express instance Nest itself uses (express is not a direct dependency).
  const app = new ExpressAdapter().getInstance<Express>();
  app.use(hostGuard(loadConfig(env), { isSingleUser: () => (lookups.count++, isSingleUser()) }));
  app.get('/', (_req, res) => res.json({ ok: true }));
  return { http: () => request(app), lookups };
}

describe('hostGuard', () => {
  it('looks up stored keys only for a foreign request: loopback ones cost nothing', async () => {
    const { http, lookups } = appWith({}, async () => true);
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:80'])
      await http().get('/').set('Host', host).set('Origin', 'http://localhost:3000').expect(200);
    expect(lookups.count).toBe(0);
    await http().get('/').set('Host', 'attacker.example').expect(403);
    expect(lookups.count).toBe(1);
  });

  it('refuses a Host outside ALLOWED_HOSTS without asking whether keys exist', async () => {
    const { http, lookups } = appWith({ ALLOWED_HOSTS: 'chat.example.com' }, async () => false);
    const refused = await http().get('/').set('Host', 'attacker.example').expect(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'forbidden',
      message: expect.stringContaining('ALLOWED_HOSTS'),
    });
    expect(lookups.count).toBe(0);
  });

  it('answers 503, not 200, when the key look-up fails', async () => {
    const { http } = appWith({}, async () => {
      throw new Error('database is locked');
    });
    const res = await http().get('/').set('Host', 'attacker.example').expect(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
  });

  it('quotes a long or odd Host shortened, as JSON text', async () => {
    const { http } = appWith({}, async () => true);
    const res = await http()
      .get('/')
      .set('Host', `${'a'.repeat(300)}.example`)
      .expect(403);
    expect(res.body.message).toContain(`"${'a'.repeat(100)}"`);
    expect(res.body.message.length).toBeLessThan(300);
  });
});
