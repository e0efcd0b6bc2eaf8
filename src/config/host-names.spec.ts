import { normalizeHostName, normalizeHostPort, originHostName } from './host-names.js';

describe('normalizeHostPort (a Host header)', () => {
  it.each([
    ['localhost', 'localhost'],
    ['LOCALHOST:3000', 'localhost'],
    ['localhost.:3000', 'localhost'],
    ['Chat.Example.com.', 'chat.example.com'],
    ['127.0.0.1:65535', '127.0.0.1'],
    ['[::1]', '::1'],
    ['[::1]:3000', '::1'],
    ['[0:0:0:0:0:0:0:1]:80', '::1'],
    ['[FD00::7]', 'fd00::7'],
  ])('%s -> %s', (header, host) => {
    expect(normalizeHostPort(header)).toBe(host);
  });

  it.each([
    '',
    '::1',
    '[::1',
    '[::1]x',
    '[localhost]',
    'localhost:',
    'localhost:http',
    'localhost:3000:1',
    'localhost:70000',
    'local host',
    'user@localhost',
    'localhost/',
    'a..b',
    '.localhost',
    'localhost..',
    '-x.example',
    'ex_ample.com',
    'caf\u00e9.example',
    'xn--caf-dma.example%00',
  ])('refuses %j', (header) => {
    expect(normalizeHostPort(header)).toBeNull();
  });
});

describe('normalizeHostName (an entry of ALLOWED_HOSTS)', () => {
  it('takes names, IPv4 and IPv6 with or without brackets, and refuses ports and schemes', () => {
    expect(normalizeHostName('Proxy.Example.')).toBe('proxy.example');
    expect(normalizeHostName('[FD00::7]')).toBe('fd00::7');
    expect(normalizeHostName('fd00::7')).toBe('fd00::7');
    expect(normalizeHostName('10.0.0.5')).toBe('10.0.0.5');
    for (const bad of ['proxy.example:443', 'https://proxy.example', '*.example.com', '', '[proxy.example]'])
      expect(normalizeHostName(bad)).toBeNull();
  });
});

describe('originHostName', () => {
  it.each([
    ['http://localhost:3000', 'localhost'],
    ['https://LOCALHOST', 'localhost'],
    ['http://[::1]:3000', '::1'],
    ['https://chat.example.com', 'chat.example.com'],
  ])('%s -> %s', (origin, host) => {
    expect(originHostName(origin)).toBe(host);
  });

  it.each([
    'null',
    'file://',
    'chrome-extension://abc',
    'http://localhost:3000/path',
    'http://user@localhost',
    'localhost',
    'ws://localhost',
  ])('refuses %s', (origin) => {
    expect(originHostName(origin)).toBeNull();
  });
});
