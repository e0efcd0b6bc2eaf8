import { STATUS_CODES } from 'node:http';
import * as fc from 'fast-check';
import { asHeaderBytes, percentEncode, sendRaw, type RawAnswer, type RawRequest } from '../../support/raw-http.js';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, BOB_KEY, type TestApp } from '../../support/test-app.js';

/**
 * Bad input at scale: random and hostile bodies, query strings, path ids, headers and unicode,
 * thrown at every route of the OpenAPI spec, with and without a valid key. Whatever comes in:
 * never a 5xx, every error answer is `{ statusCode, error, message }` as JSON with statusCode
 * equal to the HTTP status, no body carries a stack trace or database internals, and the app
 * still answers /health. The echo model answers chat turns, so they are instant.
 */

/** Runs per property and route (bounded: the whole file stays well under a minute). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
/** FUZZ_SEED replays a failure reported by fast-check. */
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** Per test: generous, since the runs are what is bounded. */
const TEST_TIMEOUT_MS = 60_000 + RUNS * 4_000;
const MAX_MESSAGE_CHARS = 32_000;
const BODY_LIMIT_BYTES = 1024 * 1024;

interface Route {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  /** Query parameter names the spec documents. */
  readonly query: string[];
  /** Body field names the spec documents (nested ones included). */
  readonly fields: string[];
}

/** The resources a request may point at; recreated whenever a request deletes them. */
interface Fixtures {
  conversation: string;
  message: string;
  question: string;
  agent: string;
  exported: unknown;
}

/** A path id: one of the fixtures, or a raw path segment (encoded or deliberately not). */
type IdChoice = { fixture: true } | { raw: string };

/** Strings that have broken parsers, databases, search syntax and renderers before. */
const HOSTILE: string[] = [
  '',
  ' ',
  '\u0000',
  'nul\u0000inside',
  '\uD800',
  '\uDFFF',
  'lone \uDBFF high',
  '\uDC00\uD800 reversed pair',
  '\u202Eevil\u202C',
  '\u2066isolate\u2069',
  'שלום עולם',
  'مرحبا بالعالم',
  'zero\u200Bwidth\u200Cjoin\u200Dchars\uFEFF',
  '\uFEFF',
  '🧑‍🚀👩🏽‍💻🏳️‍🌈',
  'e\u0301\u0301\u0301',
  '\u0301',
  '日本語テキスト',
  '\r\n\r\n',
  '\t\v\f',
  '%00',
  '%',
  '%zz',
  '../../../etc/passwd',
  "'; DROP TABLE messages; --",
  '" OR 1=1 --',
  '"unterminated',
  'NEAR(a b, 2)',
  'a OR b AND NOT c',
  '*',
  '^start',
  'content:secret',
  '((((',
  '{"$gt": ""}',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'none',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999999999',
  '0x10',
  'true',
  'null',
  'undefined',
  'main',
  'a'.repeat(65),
  'x'.repeat(5000),
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 10 }))
      .map(([a, b]) => a + b),
  },
);

/** Any JSON value, with hostile strings and awkward numbers mixed in. */
const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -0, 1, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, 0.5, 3),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** A body still to be made (it may point at the fixtures of the moment), shown by its label in counterexamples. */
interface BodyMaker {
  make(): string;
  [fc.toStringMethod](): string;
}

const maker = (label: string, make: () => string): BodyMaker => ({ make, [fc.toStringMethod]: () => label });

/** Nesting depths in the random bodies: within the limit (64 levels), and far past it. */
const DEPTHS = [10, 64, 65, 500, 2_000, 20_000];

/** A JSON text, as the raw body of a request: anything from valid-looking to hostile. */
function bodyText(route: Route, valid: () => unknown): fc.Arbitrary<BodyMaker> {
  const known = route.fields.length ? route.fields : ['message'];
  const fieldValue = fc.oneof(jsonish, hostileString);
  return fc.oneof(
    // A valid body with one field replaced or added. (A computed key makes "__proto__" an own
    // property, which JSON.stringify then writes out.)
    fc
      .tuple(fc.constantFrom(...known, ...PROTO_KEYS, 'extra'), fieldValue)
      .map(([key, value]) =>
        maker(`valid body with ${JSON.stringify(key)}: ${truncate(JSON.stringify(value) ?? 'null', 200)}`, () =>
          JSON.stringify({ ...(valid() as object), [key]: value }),
        ),
      ),
    // Random JSON values of every type.
    jsonish.map((v) => maker(truncate(JSON.stringify(v) ?? 'null', 300), () => JSON.stringify(v) ?? 'null')),
    // Objects made of the route's fields with random values.
    fc
      .dictionary(fc.constantFrom(...known), fieldValue, { maxKeys: 6 })
      .map((o) => maker(truncate(JSON.stringify(o), 300), () => JSON.stringify(o))),
    // Prototype pollution, at the top and nested (JSON.parse makes "__proto__" an own key).
    fc.tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...known)).map(([proto, field]) =>
      maker(`${proto} at the top and in ${field}`, () => {
        const base = JSON.stringify(valid()).slice(1, -1);
        const payload = `{"polluted":"yes","prototype":{"polluted":"yes"}}`;
        return `{${JSON.stringify(proto)}:${payload},"${field}":{${JSON.stringify(proto)}:${payload}}${base ? `,${base}` : ''}}`;
      }),
    ),
    // Deep nesting, as the whole body or inside a field.
    fc
      .tuple(fc.constantFrom(...DEPTHS), fc.boolean(), fc.option(fc.constantFrom(...known)))
      .map(([depth, asArray, field]) =>
        maker(`${asArray ? 'arrays' : 'objects'} nested ${depth} deep${field === null ? '' : ` in ${field}`}`, () => {
          const deep = nested(depth, asArray);
          return field === null ? deep : `{"${field}":${deep}}`;
        }),
      ),
    // Huge strings: just over the message limit, within the body limit, and over it.
    fc
      .tuple(
        fc.constantFrom<[string, () => string]>(
          ['MAX_MESSAGE_CHARS + 1 ASCII characters', () => 'a'.repeat(MAX_MESSAGE_CHARS + 1)],
          ['150,000 two-byte characters', () => 'é'.repeat(150_000)],
          ['emoji just under the body limit', () => '🚀'.repeat((BODY_LIMIT_BYTES - 200) / 4)],
          ['a string over the body limit', () => 'b'.repeat(BODY_LIMIT_BYTES + 10)],
        ),
        fc.constantFrom(...known),
      )
      .map(([[label, text], field]) =>
        maker(`valid body with ${field} = ${label}`, () => JSON.stringify({ ...(valid() as object), [field]: text() })),
      ),
    // Not JSON, or not what the parser expects.
    fc
      .constantFrom(
        '',
        'null',
        '123',
        '"a string"',
        '[]',
        '{}',
        '{',
        '{"message":',
        '{"a":1,}',
        '\uFEFF{}',
        "{'single':'quotes'}",
        'message=hi',
        'undefined',
        'NaN',
      )
      .map((s) => maker(JSON.stringify(s), () => s)),
    fc.string({ unit: 'binary', maxLength: 200 }).map((s) => maker(JSON.stringify(s), () => s)),
  );
}

/** JSON text of arrays or objects nested `depth` deep. */
function nested(depth: number, asArray: boolean): string {
  return asArray ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'application/json; boundary=x; q=0',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'application/json, text/plain',
  ';;;',
  '',
];

/**
 * Header values as they can travel: visible ASCII, latin1 bytes, and the UTF-8 bytes of hostile
 * strings. Control characters cannot be sent (HTTP clients and Node's parser refuse them), so
 * they become "?". Lengths keep a request's headers under Node's 16 KB limit.
 */
const headerValue: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
    fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
    hostileString.map(asHeaderBytes),
    fc.constantFrom('x'.repeat(300), 'k'.repeat(600), '\t', ' leading and trailing ', 'a,b,c', 'a; b'),
  )
  .map((v) => v.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '?').slice(0, 600));

/** With a valid key (alice's or bob's) more often than not, so requests get past authentication. */
const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(`Bearer ${ALICE_KEY}`, `bearer ${ALICE_KEY}`, `Bearer ${BOB_KEY}`) },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        `Bearer  ${ALICE_KEY}`,
        `Bearer ${ALICE_KEY} extra`,
        `Bearer ${ALICE_KEY}x`,
        `Bearer ${ALICE_KEY.slice(0, -1)}`,
        `Basic ${Buffer.from(`alice:${ALICE_KEY}`).toString('base64')}`,
        `${ALICE_KEY}`,
        'Bearer ' + 'a'.repeat(4000),
        'Bearer null',
        'Token abc',
      ),
      headerValue,
      headerValue.map((v) => `Bearer ${v}`),
    ),
  },
);

/** A path segment: a fixture id, a UUID, or hostile text, percent-encoded or raw. */
const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ fixture: true } as const) },
  { weight: 1, arbitrary: fc.uuid().map((raw) => ({ raw })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF')
      .map((raw) => ({ raw })),
  },
  { weight: 2, arbitrary: hostileString.filter((s) => s !== '').map((s) => ({ raw: percentEncode(s) })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        '%',
        '%zz',
        '%E0%A4%A',
        '%ED%A0%80',
        '%C0%AE',
        '%FF',
        '%00',
        '..',
        '%2e%2e',
        '%2F',
        'a%2Fb',
        ';x=1',
        '%20',
        '+',
        '~',
        'x'.repeat(2000),
      )
      .map((raw) => ({ raw })),
  },
);

/** A query string: documented and invented keys, repeated keys, bracket syntax, hostile values, broken encodings. */
function queryString(route: Route): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(
      ...(route.query.length ? route.query : ['limit']),
      ...PROTO_KEYS,
      'toString',
      'limit[]',
      'limit[a]',
      '__proto__[polluted]',
      'constructor[prototype][polluted]',
    ),
    hostileString.map(percentEncode),
  );
  // Values are capped so that a request line stays under Node's 16 KB header limit.
  const value = fc.oneof(
    hostileString.map((s) => percentEncode(s).slice(0, 1500)),
    fc.constantFrom(
      '1',
      '100',
      '101',
      '0',
      '-1',
      '1.5',
      '1e3',
      'true',
      'false',
      'TRUE',
      'none',
      'json',
      'markdown',
      '',
      '%',
      '%zz',
      '%E0%A4%A',
      '%ED%A0%80',
      '%FF',
      'a+b',
      '2026-13-45',
      '2026-01-01T00:00:00Z',
    ),
    fc.uuid(),
  );
  const pair = fc.oneof(
    fc.tuple(key, value).map(([k, v]) => `${k}=${v}`),
    key,
    fc.constantFrom('=', '&&', '=value', '&=&'),
  );
  return fc.array(pair, { minLength: 1, maxLength: 6 }).map((pairs) => pairs.join('&'));
}

/**
 * Extra headers that are easy to get wrong. (Not `Expect`: Node's HTTP server answers any
 * value but 100-continue itself, 417 with an empty body, before the application sees it.)
 */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .subarray([
    'Accept',
    'Accept-Encoding',
    'Accept-Language',
    'X-Forwarded-For',
    'X-Forwarded-Proto',
    'Origin',
    'Cookie',
    'Range',
    'If-None-Match',
    'Last-Event-ID',
    'X-Request-Id',
  ])
  .chain((names) => fc.tuple(...names.map((n) => headerValue.map((v) => [n, v] as const))))
  .map((pairs) => Object.fromEntries(pairs));

/**
 * A valid body with every free-text string (not ids, enums, thread names or dates) replaced by
 * `text`, and `text` added to the keys of state objects.
 */
function replaceText(value: unknown, text: string, key = ''): unknown {
  if (typeof value === 'string')
    return /^(id|.*Id|format|role|status|thread|exportedAt|createdAt|updatedAt)$/.test(key) ? value : text;
  if (Array.isArray(value)) return value.map((v) => replaceText(v, text, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        key === 'state' || key === 'nested' ? `${k}${text}` : k,
        replaceText(v, text, k),
      ]),
    );
  }
  return value;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const STACK =
  /\bat (?:async )?[\w$.<>[\] ]+ \((?:file:\/\/|node:)?[^()\s]*:\d+:\d+\)|\n\s+at (?:file:\/\/|node:|\/)\S*:\d+:\d+/;
const INTERNALS =
  /node_modules|SQLITE_|QueryFailedError|TypeORMError|EntityMetadata|at Object\.|\/src\/[\w/-]+\.(?:ts|js)/;

function truncate(s: string, n = 400): string {
  return s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s;
}

/** Every answer: below 500, no stack trace; every error: the common JSON error body, matching its status. */
function checkAnswer(req: RawRequest, res: RawAnswer): void {
  const fail = (why: string) => {
    const shown = {
      method: req.method,
      path: truncate(req.path, 300),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, truncate(v, 120)])),
      body: truncate(String(req.body ?? ''), 300),
    };
    throw new Error(`${why}\nrequest: ${JSON.stringify(shown)}\nanswer: ${res.status} ${truncate(res.text, 600)}`);
  };
  if (res.status >= 500) fail(`answered ${res.status}`);
  if (STACK.test(res.text)) fail('a stack trace in the body');
  if (res.status < 400 || req.method === 'HEAD') return;
  if (INTERNALS.test(res.text)) fail('internals in an error body');
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json'))
    fail(`an error answer that is not JSON (${String(res.headers['content-type'])})`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return fail('an error body that does not parse');
  }
  const b = body as Record<string, unknown>;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return fail('an error body that is not an object');
  if (b.statusCode !== res.status) fail('statusCode differs from the HTTP status');
  if (b.error !== STATUS_CODES[res.status]) fail(`error is not the reason phrase of ${res.status}`);
  if (typeof b.message !== 'string' || b.message === '') fail('message is not a non-empty string');
}

describe('bad input at scale: every route of the spec, fuzzed', () => {
  // Echo model (no LLM settings), two API keys, no rate limit: the fuzzers send thousands of requests.
  const fixture = useApp({ RATE_LIMIT_PER_MINUTE: '0', BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) });
  let t: TestApp;
  let base: string;
  let routes: Route[];
  let fx: Fixtures;
  const statuses = new Map<number, number>();
  let requests = 0;

  const send = async (req: RawRequest): Promise<RawAnswer> => {
    const res = await sendRaw(base, req);
    requests++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    checkAnswer(req, res);
    return res;
  };

  const json = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await sendRaw(base, {
      method,
      path,
      headers: {
        Authorization: `Bearer ${ALICE_KEY}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res.text ? JSON.parse(res.text) : undefined;
  };

  /** Alice's conversation (with one turn), her agent and an export to import. */
  const makeFixtures = async (): Promise<Fixtures> => {
    const agent = (
      await json('POST', '/api/agents', { name: 'Fuzz agent', systemPrompt: 'be brief', tools: ['update_state'] })
    ).id;
    const turn = await json('POST', '/api/chat', { message: 'fixture question' });
    const exported = await json('GET', `/api/conversations/${turn.conversationId}/export`);
    return {
      conversation: turn.conversationId,
      message: turn.messageId,
      question: turn.userMessageId,
      agent,
      exported,
    };
  };

  /** Valid bodies per operation, aimed at the fixtures; the fuzzers start from them. */
  const validBody = (route: Route): unknown => {
    switch (route.operationId) {
      case 'chat':
      case 'chatStream':
        return {
          message: 'hello there',
          conversationId: fx.conversation,
          thread: 'main',
          options: { temperature: 0.5, maxTokens: 100 },
        };
      case 'createConversation':
        return { title: 'fuzzed', agentId: fx.agent, state: { mood: 'curious' } };
      case 'createAgent':
      case 'updateAgent':
        return {
          name: 'Agent',
          emoji: '🧭',
          systemPrompt: 'You help.',
          temperature: 1,
          maxTokens: 200,
          tools: ['update_state'],
        };
      case 'importConversation':
        return fx.exported;
      case 'updateConversation':
        return { title: 'renamed', pinned: true, archived: false, tags: ['work'] };
      case 'forkConversation':
        return { fromMessageId: fx.message };
      case 'regenerateReply':
      case 'regenerateReplyStream':
        return { thread: 'main', options: { temperature: 0.2 } };
      case 'patchState':
      case 'replaceState':
        return { city: 'Lisbon', nested: { a: [1, 2] } };
      default:
        return {};
    }
  };

  const pathFor = (route: Route, id: IdChoice, messageId: IdChoice): string => {
    const resolve = (choice: IdChoice, fixture: string) => ('fixture' in choice ? fixture : choice.raw);
    return route.path
      .replace('{id}', resolve(id, route.path.startsWith('/api/agents') ? fx.agent : fx.conversation))
      .replace('{messageId}', resolve(messageId, fx.message));
  };

  /** After a request that deleted something (or everything), the fixtures are made again. */
  const afterward = async (req: RawRequest, res: RawAnswer) => {
    if (req.method === 'DELETE' && res.status < 300) fx = await makeFixtures();
  };

  const stillHealthy = async () => {
    const res = await sendRaw(base, { method: 'GET', path: '/health', headers: {} });
    expect({ status: res.status, body: JSON.parse(res.text) }).toEqual({
      status: 200,
      body: { status: 'ok', database: 'ok', writable: true },
    });
  };

  const assertProperty = async (property: Parameters<typeof fc.assert>[0]) => {
    await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
    await stillHealthy();
    expect(Object.prototype).not.toHaveProperty('polluted');
  };

  beforeAll(async () => {
    t = fixture.app;
    base = await t.url();
    const spec = JSON.parse((await sendRaw(base, { method: 'GET', path: '/api/docs-json', headers: {} })).text);
    const schemas = spec.components?.schemas ?? {};
    const fieldsOf = (schema: any, seen = new Set<string>()): string[] => {
      if (!schema) return [];
      if (schema.$ref) {
        const name = String(schema.$ref).split('/').pop()!;
        if (seen.has(name)) return [];
        seen.add(name);
        return fieldsOf(schemas[name], seen);
      }
      const props = Object.entries((schema.properties ?? {}) as Record<string, unknown>);
      return [
        ...props.map(([k]) => k),
        ...props.flatMap(([, v]) => fieldsOf(v, seen)),
        ...fieldsOf(schema.items, seen),
      ];
    };
    routes = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId as string,
        query: ((op.parameters ?? []) as Array<{ in: string; name: string }>)
          .filter((p) => p.in === 'query')
          .map((p) => p.name),
        fields: [
          ...new Set(
            Object.values((op.requestBody?.content ?? {}) as Record<string, { schema: unknown }>).flatMap((c) =>
              fieldsOf(c.schema),
            ),
          ),
        ],
      })),
    );
    fx = await makeFixtures();
  });

  afterAll(async () => {
    console.log(
      `fuzz: ${requests} requests on ${routes.length} routes; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
  });

  it('takes every route from the OpenAPI spec', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.map((r) => r.operationId)).toEqual(
      expect.arrayContaining(['chat', 'chatStream', 'getConversation', 'patchState', 'createAgent', 'health']),
    );
  });

  it(
    'survives random and hostile bodies under every Content-Type',
    async () => {
      for (const route of routes) {
        const property = fc.asyncProperty(
          authorization,
          fc.oneof(
            { weight: 3, arbitrary: fc.constant('application/json') },
            { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
          fc.option(fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus', 'gzip, gzip'), { freq: 8 }),
          bodyText(route, () => validBody(route)),
          idChoice,
          async (auth, contentType, encoding, body, id) => {
            const req: RawRequest = {
              method: route.method,
              path: pathFor(route, id, id),
              headers: {
                ...(auth === undefined ? {} : { Authorization: auth }),
                ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
                ...(encoding === null ? {} : { 'Content-Encoding': encoding }),
              },
              body: body.make(),
            };
            await afterward(req, await send(req));
          },
        );
        await assertProperty(property);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'survives hostile query strings and path ids',
    async () => {
      for (const route of routes) {
        const property = fc.asyncProperty(
          authorization,
          queryString(route),
          idChoice,
          idChoice,
          async (auth, query, id, messageId) => {
            const body = route.fields.length ? JSON.stringify(validBody(route)) : undefined;
            const req: RawRequest = {
              method: route.method,
              path: `${pathFor(route, id, messageId)}?${query}`,
              headers: {
                ...(auth === undefined ? {} : { Authorization: auth }),
                ...(body ? { 'Content-Type': 'application/json' } : {}),
              },
              body,
            };
            await afterward(req, await send(req));
          },
        );
        await assertProperty(property);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'survives garbage in Authorization, Idempotency-Key, Content-Type and other headers',
    async () => {
      for (const route of routes) {
        const property = fc.asyncProperty(
          authorization,
          fc.option(fc.oneof(headerValue, fc.uuid()), { freq: 3 }),
          fc.option(fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerValue), { freq: 4 }),
          extraHeaders,
          async (auth, idempotencyKey, contentType, extra) => {
            const body = JSON.stringify(validBody(route));
            const req: RawRequest = {
              method: route.method,
              path: pathFor(route, { fixture: true }, { fixture: true }),
              headers: {
                ...extra,
                ...(auth === undefined ? {} : { Authorization: auth }),
                ...(idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey }),
                'Content-Type': contentType ?? 'application/json',
              },
              body,
            };
            await afterward(req, await send(req));
          },
        );
        await assertProperty(property);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'stores and serves hostile unicode in every text field, then reads it back',
    async () => {
      for (const route of routes) {
        const property = fc.asyncProperty(hostileString, fc.boolean(), async (text, thenRead) => {
          const body = route.fields.length ? JSON.stringify(replaceText(validBody(route), text)) : undefined;
          const query = route.query.map((q) => `${q}=${percentEncode(text).slice(0, 1500)}`).join('&');
          const req: RawRequest = {
            method: route.method,
            path: `${pathFor(route, { fixture: true }, { fixture: true })}${query ? `?${query}` : ''}`,
            headers: { Authorization: `Bearer ${ALICE_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
            body,
          };
          const res = await send(req);
          await afterward(req, res);
          // A chat message is stored exactly as sent. Only for well-formed text: a lone surrogate
          // cannot be stored as UTF-8 (it is read back as U+FFFD characters).
          if (route.operationId === 'chat' && res.status === 200 && !LONE_SURROGATE.test(text)) {
            const answer = JSON.parse(res.text);
            const page = await send({
              method: 'GET',
              path: `/api/conversations/${answer.conversationId}/messages?limit=2`,
              headers: { Authorization: `Bearer ${ALICE_KEY}` },
            });
            const stored = JSON.parse(page.text).items.find((m: { id: string }) => m.id === answer.userMessageId);
            expect(stored?.content).toBe(text);
          }
          if (thenRead) {
            // What was stored is served back without a 5xx: the conversation, search, the export.
            for (const path of [
              `/api/conversations/${fx.conversation}`,
              `/api/conversations?q=${percentEncode(text).slice(0, 1500)}`,
              `/api/conversations/${fx.conversation}/export?format=markdown`,
            ]) {
              await send({ method: 'GET', path, headers: { Authorization: `Bearer ${ALICE_KEY}` } });
            }
          }
        });
        await assertProperty(property);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'survives every method on every path, and unknown paths',
    async () => {
      const property = fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'),
        fc.option(fc.oneof(hostileString.map(percentEncode), fc.constantFrom('%', '%ED%A0%80', '..', 'x/y/z', '')), {
          freq: 2,
        }),
        authorization,
        async (route, method, suffix, auth) => {
          const req: RawRequest = {
            method,
            path: pathFor(route, { fixture: true }, { fixture: true }) + (suffix === null ? '' : `/${suffix}`),
            headers: { ...(auth === undefined ? {} : { Authorization: auth }), 'Content-Type': 'application/json' },
            body:
              method === 'GET' || method === 'HEAD' || method === 'TRACE'
                ? undefined
                : JSON.stringify(validBody(route)),
          };
          await afterward(req, await send(req));
        },
      );
      await fc.assert(property, { numRuns: RUNS * 4, seed: SEED, endOnFailure: true });
      await stillHealthy();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'refuses or stores NUL characters (U+0000) in every text field and query parameter, never a 5xx',
    async () => {
      // PostgreSQL text cannot hold NUL: unchecked, it fails there as a database error.
      const text = 'nul\u0000inside';
      for (const route of routes) {
        const body = route.fields.length ? JSON.stringify(replaceText(validBody(route), text)) : undefined;
        // All query parameters at once, then each alone (the first refused one hides the others).
        const queries = [route.query, ...route.query.map((q) => [q])].map((names) =>
          names.map((q) => `${q}=${percentEncode(text)}`).join('&'),
        );
        for (const query of [...new Set(queries)]) {
          const req: RawRequest = {
            method: route.method,
            path: `${pathFor(route, { fixture: true }, { fixture: true })}${query ? `?${query}` : ''}`,
            headers: { Authorization: `Bearer ${ALICE_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
            body,
          };
          await afterward(req, await send(req));
        }
      }
      await stillHealthy();
    },
    TEST_TIMEOUT_MS,
  );

  /**
   * Deep JSON once answered 500 ("Maximum call stack size exceeded"): class-transformer and
   * class-validator in the global ValidationPipe, and validState and mergePatch in state.ts,
   * recurse over the body. Between about 1,100 and 2,600 levels (2 to 5 KB of "[[[...") every
   * route with a DTO body failed that way. The body parser now refuses such nesting with 400.
   */
  it(
    'answers deeply nested JSON with 400 on every route with a body',
    async () => {
      const failures: string[] = [];
      for (const route of routes.filter((r) => r.fields.length)) {
        for (const depth of [1_200, 1_500, 2_000, 2_500, 5_000, 20_000]) {
          for (const asArray of [true, false]) {
            for (const field of [null, route.fields[0], 'options']) {
              const deep = nested(depth, asArray);
              const valid = JSON.stringify(validBody(route));
              const req: RawRequest = {
                method: route.method,
                path: pathFor(route, { fixture: true }, { fixture: true }),
                headers: { Authorization: `Bearer ${ALICE_KEY}`, 'Content-Type': 'application/json' },
                body: field === null ? deep : valid.replace(/\}$/, `${valid === '{}' ? '' : ','}"${field}":${deep}}`),
              };
              const res = await sendRaw(base, req);
              if (res.status !== 400)
                failures.push(
                  `${route.method} ${route.path}: ${asArray ? 'arrays' : 'objects'} ${depth} deep${field ? ` in ${field}` : ''}: ${res.status}`,
                );
              if (res.status < 500) checkAnswer(req, res);
              await afterward(req, res);
            }
          }
        }
      }
      await stillHealthy();
      if (failures.length) {
        const routesHit = [...new Set(failures.map((f) => f.split(':')[0]))];
        console.log(
          `deeply nested JSON is not refused with 400 on ${failures.length} requests, on ${routesHit.join(', ')}; e.g.:\n${failures.slice(0, 8).join('\n')}`,
        );
      }
      expect(failures).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it('still answers /health afterwards, with nothing polluted', async () => {
    await stillHealthy();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
