import { useAppStarter } from '../../support/app-fixture.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';

// GET /api/settings: whether the server needs a key and the longest message, answered without a
// key, so that a client (the web page) asks for a key before calling any route that needs it.
describe('GET /api/settings: whether a key is needed, and the longest message', () => {
  const { start } = useAppStarter();

  it('says a key is needed when the server has keys, without a key and with one', async () => {
    const t = await start();
    expect((await t.http().get('/api/settings').expect(200)).body).toEqual({
      keyRequired: true,
      maxMessageChars: 32000,
    });
    expect((await t.http().get('/api/settings').set(auth(ALICE_KEY)).expect(200)).body).toEqual({
      keyRequired: true,
      maxMessageChars: 32000,
    });
    expect((await t.http().get('/api/settings').set(auth('not-a-key')).expect(200)).body).toEqual({
      keyRequired: true,
      maxMessageChars: 32000,
    });
  });

  it('says no key is needed in single-user mode', async () => {
    const t = await start({ API_KEYS: '', MAX_MESSAGE_CHARS: '500' });
    const res = await t.http().get('/api/settings').expect(200);
    expect(res.body).toEqual({ keyRequired: false, maxMessageChars: 500 });
    expect(res.headers['cache-control']).toBe('no-store'); // a key made meanwhile ends single-user mode at once
  });
});
