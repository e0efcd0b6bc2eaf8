import { once } from 'node:events';
import { Agent, createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { HttpDrain } from './http-drain.js';

describe('HttpDrain: shutdown waits for no connection that has nothing left to answer', () => {
  let server: Server;
  let drain: HttpDrain;
  let port: number;
  let held: ServerResponse[];

  beforeEach(async () => {
    held = [];
    server = createServer((req, res) => (req.url === '/hold' ? held.push(res) : res.end('ok')));
    // Long enough that a connection left to its keep-alive would outlast the test.
    server.keepAliveTimeout = 60_000;
    drain = new HttpDrain();
    drain.watch(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => server.closeAllConnections());

  const silent = async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    return { closed: once(socket, 'close') };
  };
  const request = (path: string, agent: Agent) =>
    new Promise<string>((resolve, reject) =>
      get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      }).on('error', reject),
    );

  it('closes silent and idle connections at once, and one answered during the drain when its answer ends', async () => {
    const agent = new Agent({ keepAlive: true });
    const before = await silent();
    expect(await request('/', agent)).toBe('ok'); // now idle, kept alive
    const answered = request('/hold', new Agent({ keepAlive: true }));
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    // As the application closes: the drain starts, the server stops listening later.
    drain.onModuleDestroy();
    await before.closed;
    const during = await silent(); // opened during the drain, never sends a byte
    const closed = new Promise((resolve) => server.close(resolve));
    held[0].end('late');
    expect(await answered).toBe('late');
    await during.closed;
    await closed; // no connection held the server open
    agent.destroy();
  });
});
