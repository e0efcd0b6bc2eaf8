import { loadConfig } from './app-config.js';
import { ConfigError } from './config-error.js';
import { MAX_REPLY_CHARS as IMPORTED_REPLY_CHARS } from '../portability/export-document.js';
import { hashApiKey } from '../common/api-key-hash.js';
import { isLoopbackHost } from './loopback.js';

describe('loadConfig', () => {
  it('runs out of the box: loopback, SQLite file, echo model, window 20', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      apiKeys: [],
      llm: { provider: 'echo', chosen: false },
      historyWindow: 20,
      maxMessageChars: 32_000,
      bodyLimitBytes: 1024 * 1024,
    });
    expect(config.database).toEqual({ kind: 'sqlite', path: expect.stringMatching(/data\/chat\.sqlite$/) });
  });

  it('parses API_KEYS into named key hashes, keeping no key in clear', () => {
    const config = loadConfig({ API_KEYS: 'alice:KEY1-long-enough, bob:KEY2-long-enough' });
    expect(config.apiKeys).toEqual([
      { name: 'alice', keyHash: hashApiKey('KEY1-long-enough') },
      { name: 'bob', keyHash: hashApiKey('KEY2-long-enough') },
    ]);
    expect(JSON.stringify(config)).not.toContain('long-enough');
  });

  it.each([
    ['no colon', 'alicekey-long-enough', /name:key/],
    ['an empty key', 'alice:', /name:key/],
    ['a short key', 'alice:short', /shorter than 8/],
    ['a name used twice', 'a:key-one-long,a:key-two-long', /names "a" twice/],
    ['one key for two names', 'a:same-key-long,b:same-key-long', /same key/],
    ['a name with spaces', 'al ice:key-long-enough', /may only use/],
    ['whitespace inside a key', 'alice:key-long enough', /contains whitespace/],
  ])('refuses API_KEYS with %s, without echoing the key', (_label, value, pattern) => {
    expect(() => loadConfig({ API_KEYS: value })).toThrow(pattern);
    try {
      loadConfig({ API_KEYS: value });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      for (const secret of ['key-long-enough', 'key-one-long', 'same-key-long', 'alicekey']) {
        expect((error as Error).message).not.toContain(secret);
      }
    }
  });

  it('requires API keys on a non-loopback address (checked at start, see ApiKeyAuthenticator)', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).requireApiKeys).toBe(true);
    expect(loadConfig({ HOST: '127.0.0.1' }).requireApiKeys).toBe(false);
  });

  it('selects the OpenAI-compatible model when an address or a key is given', () => {
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3' }).llm).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'not-needed',
      model: 'llama3',
      timeoutMs: 60_000,
      maxRetries: 2,
    });
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).llm).toMatchObject({
      provider: 'openai',
      apiKey: 'sk-x',
      model: 'gpt-4o-mini',
    });
    expect(loadConfig({ LLM_API_KEY: 'a', OPENAI_API_KEY: 'b' }).llm).toMatchObject({ apiKey: 'a' });
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', LLM_MODEL: 'echo' }).llm).toEqual({ provider: 'echo', chosen: true });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['HISTORY_WINDOW', '-1'],
    ['HISTORY_WINDOW', '2.5'],
    ['MAX_MESSAGE_CHARS', '0'],
    ['LLM_TIMEOUT_MS', '10'],
    ['PORT', '1e3'],
    ['PORT', '0x10'],
  ])('names the variable when %s=%s is invalid', (name, value) => {
    expect(() => loadConfig({ [name]: value, LLM_BASE_URL: 'http://127.0.0.1:1/v1' })).toThrow(
      new RegExp(`^${name} must be`),
    );
  });

  it('refuses an LLM_BASE_URL that is not http(s) and an unknown database scheme', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'localhost:11434' })).toThrow(/LLM_BASE_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL scheme "mysql:" is not supported/);
    // Checked even while the echo model answers.
    expect(() => loadConfig({ LLM_MODEL: 'echo', LLM_BASE_URL: 'nope' })).toThrow(/LLM_BASE_URL must be/);
  });

  it("accepts the SDK's own OPENAI_BASE_URL and strips brackets from an IPv6 HOST", () => {
    expect(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }).llm).toMatchObject({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:8000/v1',
    });
    expect(loadConfig({ HOST: '[::1]' }).host).toBe('::1');
  });

  it('resolves sqlite: paths, relative and absolute', () => {
    const path = (url: string) => loadConfig({ DATABASE_URL: url }).database;
    expect(path('sqlite:/var/lib/chat/db.sqlite')).toEqual({ kind: 'sqlite', path: '/var/lib/chat/db.sqlite' });
    expect(path('sqlite:///var/lib/chat/db.sqlite')).toEqual({ kind: 'sqlite', path: '/var/lib/chat/db.sqlite' });
    expect(path('sqlite:rel/db.sqlite')).toEqual({ kind: 'sqlite', path: `${process.cwd()}/rel/db.sqlite` });
  });

  it('reads postgres URLs, with an optional schema, never echoing the password', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://chat:s3cret@db.internal:5432/chat?schema=tenant_a&sslmode=require' })
        .database,
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://chat:s3cret@db.internal:5432/chat?sslmode=require',
      schema: 'tenant_a',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/chat' }).database).toMatchObject({
      kind: 'postgres',
      schema: undefined,
    });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:s3cret@host/db?schema=Bad-Name' })).toThrow(
      /lower-case identifier/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:s3cret@[bad' })).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_URL: 'postgres://u:s3cret@[bad' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('reads DATABASE_READ_URL: PostgreSQL standbys of a PostgreSQL primary, in its schema, skipped past 2 s of lag unless set', () => {
    const primary = 'postgres://chat:s3cret@primary:5432/chat?schema=tenant_a';
    expect(loadConfig({ DATABASE_URL: primary }).readReplicas).toEqual({ urls: [], maxLagMs: 2_000 });
    const two = loadConfig({
      DATABASE_URL: primary,
      DATABASE_READ_URL: ' postgres://r:s3cret@replica-1/chat , postgres://r@replica-2/chat?schema=tenant_a,',
      DATABASE_READ_MAX_LAG_MS: '500',
    });
    expect(two.readReplicas).toEqual({
      urls: ['postgres://r:s3cret@replica-1/chat', 'postgres://r@replica-2/chat'],
      maxLagMs: 500,
    });
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://r@replica/chat' })).toThrow(
      /DATABASE_READ_URL needs a postgres:\/\/ DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'sqlite:x.sqlite' })).toThrow(
      /entry 1 must be a postgres/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://r@replica/chat?schema=other' }),
    ).toThrow(/primary's schema/);
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_MAX_LAG_MS: '50' })).toThrow(
      /DATABASE_READ_MAX_LAG_MS/,
    );
    try {
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://r:s3cret@[bad' });
    } catch (error) {
      expect((error as Error).message).toMatch(/entry 1 is not a valid/);
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('bounds server-sent event streams: 1 MiB held back, dropped after 30 s stalled, 8 open per actor', () => {
    expect(loadConfig({})).toMatchObject({ sseMaxBufferBytes: 1024 * 1024, sseStallMs: 30_000, maxStreamsPerActor: 8 });
    const set = loadConfig({ SSE_MAX_BUFFER_BYTES: '65536', SSE_STALL_MS: '500', MAX_STREAMS_PER_ACTOR: '0' });
    expect(set).toMatchObject({ sseMaxBufferBytes: 65_536, sseStallMs: 500, maxStreamsPerActor: 0 });
    expect(() => loadConfig({ SSE_MAX_BUFFER_BYTES: '1000' })).toThrow(
      /SSE_MAX_BUFFER_BYTES must be an integer from 16384/,
    );
    expect(() => loadConfig({ SSE_STALL_MS: '0' })).toThrow(/SSE_STALL_MS/);
    expect(() => loadConfig({ MAX_STREAMS_PER_ACTOR: 'many' })).toThrow(/MAX_STREAMS_PER_ACTOR/);
  });

  it('reads and writes long-term memories unless MEMORY_MODE says otherwise, within MEMORY_TOKEN_BUDGET (1000 unless set)', () => {
    expect(loadConfig({})).toMatchObject({ memoryMode: 'on', memoryTokenBudget: 1000 });
    expect(loadConfig({ MEMORY_MODE: 'read', MEMORY_TOKEN_BUDGET: '250' })).toMatchObject({
      memoryMode: 'read',
      memoryTokenBudget: 250,
    });
    expect(loadConfig({ MEMORY_MODE: 'off', MEMORY_TOKEN_BUDGET: '0' })).toMatchObject({
      memoryMode: 'off',
      memoryTokenBudget: 0,
    });
    expect(loadConfig({}).maxMemoriesPerActor).toBe(10_000);
    expect(loadConfig({ MAX_MEMORIES_PER_ACTOR: '0' }).maxMemoriesPerActor).toBe(0);
    expect(() => loadConfig({ MAX_MEMORIES_PER_ACTOR: '-1' })).toThrow(/MAX_MEMORIES_PER_ACTOR/);
    expect(loadConfig({}).maxAgentsPerActor).toBe(200);
    expect(loadConfig({ MAX_AGENTS_PER_ACTOR: '0' }).maxAgentsPerActor).toBe(0);
    expect(() => loadConfig({ MAX_AGENTS_PER_ACTOR: 'many' })).toThrow(/MAX_AGENTS_PER_ACTOR/);
    expect(() => loadConfig({ MEMORY_MODE: 'yes' })).toThrow(/^MEMORY_MODE must be one of off, read, on, got "yes"/);
    expect(() => loadConfig({ MEMORY_TOKEN_BUDGET: '-1' })).toThrow(/^MEMORY_TOKEN_BUDGET must be/);
    expect(() => loadConfig({ MEMORY_TOKEN_BUDGET: 'lots' })).toThrow(/^MEMORY_TOKEN_BUDGET must be/);
  });

  it('keeps conversations forever unless RETENTION_DAYS is set to a whole number of days', () => {
    expect(loadConfig({}).retentionDays).toBeNull();
    expect(loadConfig({ RETENTION_DAYS: '  ' }).retentionDays).toBeNull();
    expect(loadConfig({ RETENTION_DAYS: '30' }).retentionDays).toBe(30);
    expect(loadConfig({ RETENTION_DAYS: ' 1 ' }).retentionDays).toBe(1);
  });

  it('reads ALLOWED_HOSTS as normalized host names (lower case, no trailing dot, IPv6 bare), empty by default', () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(loadConfig({ ALLOWED_HOSTS: ' Chat.Example.com. , 10.0.0.5,[FD00::7]' }).allowedHosts).toEqual([
      'chat.example.com',
      '10.0.0.5',
      'fd00::7',
    ]);
  });

  it.each(['chat.example.com:443', 'https://chat.example.com', '*.example.com', 'a,,b', 'chat.example.com,'])(
    'refuses ALLOWED_HOSTS=%s, naming the variable',
    (value) => {
      expect(() => loadConfig({ ALLOWED_HOSTS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ALLOWED_HOSTS: value })).toThrow(
        /^ALLOWED_HOSTS entries must be host names or addresses without scheme or port, like chat\.example\.com, got "/,
      );
    },
  );

  it('bounds replies by MAX_REPLY_CHARS and LLM_MAX_REPLY_MS, never past what an import reads back', () => {
    expect(loadConfig({})).toMatchObject({ maxReplyChars: 100_000, maxReplyMs: 600_000 });
    expect(loadConfig({ MAX_REPLY_CHARS: '5000', LLM_MAX_REPLY_MS: '2000' })).toMatchObject({
      maxReplyChars: 5000,
      maxReplyMs: 2000,
    });
    expect(loadConfig({ MAX_REPLY_CHARS: String(IMPORTED_REPLY_CHARS) }).maxReplyChars).toBe(IMPORTED_REPLY_CHARS);
    expect(() => loadConfig({ MAX_REPLY_CHARS: String(IMPORTED_REPLY_CHARS + 1) })).toThrow(
      /^MAX_REPLY_CHARS must be an integer from 1000 to 1000000/,
    );
    expect(() => loadConfig({ MAX_REPLY_CHARS: '999' })).toThrow(/^MAX_REPLY_CHARS must be/);
    expect(() => loadConfig({ LLM_MAX_REPLY_MS: '999' })).toThrow(
      /^LLM_MAX_REPLY_MS must be an integer from 1000 to 86400000/,
    );
    expect(() => loadConfig({ LLM_MAX_REPLY_MS: 'forever' })).toThrow(/^LLM_MAX_REPLY_MS must be/);
  });

  it('reads LOG_LEVEL (default log) and refuses an unknown one', () => {
    expect(loadConfig({}).logLevel).toBe('log');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('leaves /metrics to loopback callers unless METRICS_TOKEN is set (16+ characters, never echoed)', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: ' scrape-token-0123456789 ' }).metricsToken).toBe('scrape-token-0123456789');
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
  });

  it('reads imports up to IMPORT_BODY_LIMIT_BYTES (64 MiB unless set, at most 1 GiB)', () => {
    expect(loadConfig({}).importBodyLimitBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ IMPORT_BODY_LIMIT_BYTES: '2048' }).importBodyLimitBytes).toBe(2048);
    expect(() => loadConfig({ IMPORT_BODY_LIMIT_BYTES: String(1024 ** 3 + 1) })).toThrow(
      /^IMPORT_BODY_LIMIT_BYTES must be an integer from 1024 to 1073741824/,
    );
  });

  it('bounds a ZIP entry of an archive import at IMPORT_UNZIPPED_LIMIT_BYTES (1 GiB unless set, at most 16 GiB)', () => {
    expect(loadConfig({}).importUnzippedLimitBytes).toBe(1024 ** 3);
    expect(loadConfig({ IMPORT_UNZIPPED_LIMIT_BYTES: '4096' }).importUnzippedLimitBytes).toBe(4096);
    expect(() => loadConfig({ IMPORT_UNZIPPED_LIMIT_BYTES: '1023' })).toThrow(
      /^IMPORT_UNZIPPED_LIMIT_BYTES must be an integer from 1024 to 17179869184/,
    );
  });

  it('reads a followed reply every FOLLOW_POLL_MS (2 s unless set) while the database wakes its followers', () => {
    expect(loadConfig({}).followPollMs).toBe(2_000);
    expect(loadConfig({ FOLLOW_POLL_MS: '60000' }).followPollMs).toBe(60_000);
    for (const bad of ['0', '9', '600001', 'soon'])
      expect(() => loadConfig({ FOLLOW_POLL_MS: bad })).toThrow(/FOLLOW_POLL_MS/);
  });

  it("waits SQLITE_BUSY_TIMEOUT_MS (5 s unless set) for another process's write lock", () => {
    expect(loadConfig({}).sqliteBusyTimeoutMs).toBe(5_000);
    expect(loadConfig({ SQLITE_BUSY_TIMEOUT_MS: '0' }).sqliteBusyTimeoutMs).toBe(0);
    expect(loadConfig({ SQLITE_BUSY_TIMEOUT_MS: '250' }).sqliteBusyTimeoutMs).toBe(250);
    for (const bad of ['-1', '600001', 'soon'])
      expect(() => loadConfig({ SQLITE_BUSY_TIMEOUT_MS: bad })).toThrow(/SQLITE_BUSY_TIMEOUT_MS/);
  });

  it('gives up a stopped model call after MODEL_STOP_GRACE_MS (2 s unless set)', () => {
    expect(loadConfig({}).modelStopGraceMs).toBe(2_000);
    expect(loadConfig({ MODEL_STOP_GRACE_MS: '250' }).modelStopGraceMs).toBe(250);
    for (const bad of ['9', '60001', 'soon'])
      expect(() => loadConfig({ MODEL_STOP_GRACE_MS: bad })).toThrow(/MODEL_STOP_GRACE_MS/);
  });

  it('runs one process unless WORKERS says more, and more only on PostgreSQL', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://u@db/chat' }).workers).toBe(4);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      /^WORKERS=2 needs PostgreSQL \(DATABASE_URL=postgres:\/\/…\): on SQLite one process serves the database file$/,
    );
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    for (const bad of ['0', '65', 'two']) expect(() => loadConfig({ WORKERS: bad })).toThrow(/^WORKERS must be/);
  });

  it.each(['0', '-3', '1.5', 'thirty', '30d', '36501'])('refuses RETENTION_DAYS=%s, naming the variable', (value) => {
    expect(() => loadConfig({ RETENTION_DAYS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RETENTION_DAYS: value })).toThrow(
      new RegExp(`^RETENTION_DAYS must be an integer from 1 to 36500, got "${value}"$`),
    );
  });
});

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.2', 'example.internal', '10.0.0.1'])('%s is not', (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });
});

describe('loadConfig: Telegram', () => {
  const TOKEN = '123456789:AAE-secret_token-value';
  const WEBHOOK = {
    TELEGRAM_WEBHOOK_URL: 'https://bot.example.test/telegram/hook',
    TELEGRAM_WEBHOOK_SECRET: 'secret-token-0123456789',
  };

  it('is off without TELEGRAM_BOT_TOKEN, and long-polls Telegram with it', () => {
    expect(loadConfig({}).telegram).toBeNull();
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN }).telegram).toEqual({
      token: TOKEN,
      apiRoot: undefined,
      webhook: null,
      allowedUsers: null,
      agentsFrom: null,
    });
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_AGENTS_FROM: 'ops' }).telegram?.agentsFrom).toBe('api:ops');
  });

  it('reads the API root (without a trailing slash), the webhook and the allowed users', () => {
    const config = loadConfig({
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/',
      TELEGRAM_ALLOWED_USERS: '42, 1234567890',
      ...WEBHOOK,
    }).telegram;
    expect(config).toEqual({
      token: TOKEN,
      apiRoot: 'http://127.0.0.1:8081',
      webhook: {
        url: 'https://bot.example.test/telegram/hook',
        path: '/telegram/hook',
        secret: 'secret-token-0123456789',
      },
      allowedUsers: [42, 1234567890],
      agentsFrom: null,
    });
  });

  it.each([
    [{ TELEGRAM_BOT_TOKEN: 'not-a-token' }, /^TELEGRAM_BOT_TOKEN must look like/],
    [{ TELEGRAM_BOT_TOKEN: '123:has space' }, /^TELEGRAM_BOT_TOKEN must look like/],
    [{ TELEGRAM_API_ROOT: 'api.telegram.test' }, /^TELEGRAM_API_ROOT must be an http\(s\) URL/],
    [{ TELEGRAM_ALLOWED_USERS: '42,bob' }, /^TELEGRAM_ALLOWED_USERS must be .* got "bob"/],
    [{ TELEGRAM_ALLOWED_USERS: '42,,43' }, /^TELEGRAM_ALLOWED_USERS must be/],
    [{ TELEGRAM_ALLOWED_USERS: '0' }, /^TELEGRAM_ALLOWED_USERS must be/],
    [{ TELEGRAM_AGENTS_FROM: 'api:ops' }, /^TELEGRAM_AGENTS_FROM must be the name of an API key/],
    [
      { TELEGRAM_WEBHOOK_URL: 'telegram/hook', TELEGRAM_WEBHOOK_SECRET: WEBHOOK.TELEGRAM_WEBHOOK_SECRET },
      /^TELEGRAM_WEBHOOK_URL must be an http\(s\) URL/,
    ],
    [
      { TELEGRAM_WEBHOOK_URL: 'https://bot.example.test/', TELEGRAM_WEBHOOK_SECRET: WEBHOOK.TELEGRAM_WEBHOOK_SECRET },
      /path of its own/,
    ],
    [
      {
        TELEGRAM_WEBHOOK_URL: 'https://bot.example.test/api/chat',
        TELEGRAM_WEBHOOK_SECRET: WEBHOOK.TELEGRAM_WEBHOOK_SECRET,
      },
      /path of its own/,
    ],
    [
      { TELEGRAM_WEBHOOK_URL: WEBHOOK.TELEGRAM_WEBHOOK_URL },
      /^TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL/,
    ],
    [{ ...WEBHOOK, TELEGRAM_WEBHOOK_SECRET: 'short' }, /^TELEGRAM_WEBHOOK_SECRET must be 16-256 characters/],
    [{ ...WEBHOOK, TELEGRAM_WEBHOOK_SECRET: 'has spaces in the secret!' }, /^TELEGRAM_WEBHOOK_SECRET must be 16-256/],
  ])('refuses %j, naming the variable', (env, pattern) => {
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN, ...env })).toThrow(pattern);
  });

  it('checks the other TELEGRAM_* values even while the bot is off', () => {
    expect(() => loadConfig({ TELEGRAM_ALLOWED_USERS: 'bob' })).toThrow(ConfigError);
  });

  it('never repeats the token or the webhook secret in an error', () => {
    for (const env of [
      { TELEGRAM_BOT_TOKEN: 'AAE-secret_token-value' },
      { ...WEBHOOK, TELEGRAM_WEBHOOK_SECRET: 'secret token with spaces' },
    ]) {
      try {
        loadConfig(env);
        throw new Error('expected a ConfigError');
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).not.toMatch(/secret[_ ]token/);
      }
    }
  });

  it('limits failed authentications to 30 a minute per address unless AUTH_FAILURES_PER_MINUTE says otherwise (0: off)', () => {
    expect(loadConfig({}).authFailuresPerMinute).toBe(30);
    expect(loadConfig({ AUTH_FAILURES_PER_MINUTE: '0' }).authFailuresPerMinute).toBe(0);
    expect(loadConfig({ AUTH_FAILURES_PER_MINUTE: '5' }).authFailuresPerMinute).toBe(5);
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: '-1' })).toThrow(
      /^AUTH_FAILURES_PER_MINUTE must be an integer from 0 to 1000000, got "-1"$/,
    );
  });

  it('limits reads of shared conversations to 60 a minute per address unless SHARED_READS_PER_MINUTE says otherwise (0: off)', () => {
    expect(loadConfig({}).sharedReadsPerMinute).toBe(60);
    expect(loadConfig({ SHARED_READS_PER_MINUTE: '0' }).sharedReadsPerMinute).toBe(0);
    expect(loadConfig({ SHARED_READS_PER_MINUTE: '5' }).sharedReadsPerMinute).toBe(5);
    expect(() => loadConfig({ SHARED_READS_PER_MINUTE: 'x' })).toThrow(
      /^SHARED_READS_PER_MINUTE must be an integer from 0 to 1000000, got "x"$/,
    );
  });

  it('builds share links from PUBLIC_BASE_URL when set (no trailing slash), else they are relative', () => {
    expect(loadConfig({}).publicBaseUrl).toBeNull();
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://chat.example.com/' }).publicBaseUrl).toBe('https://chat.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://10.0.0.5:3000/chat/' }).publicBaseUrl).toBe(
      'http://10.0.0.5:3000/chat',
    );
    for (const bad of ['chat.example.com', 'ftp://x.example', 'https://x.example/?a=1', 'https://u:p@x.example']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: bad })).toThrow(/^PUBLIC_BASE_URL must be an http\(s\) URL/);
    }
  });

  it('trusts no proxy by default; TRUST_PROXY takes a hop count or proxy addresses, never "true"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::1',
    ]);
    for (const value of ['true', '0', '11', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/2', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY /);
    }
  });
});
