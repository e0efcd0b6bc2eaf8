import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { ERROR_BODY_CODES } from '../../../src/surfaces/errors/error-codes.js';
import { generateClientSchema } from '../../../scripts/client-schema.js';
import { buildOpenApiSpec } from '../../../scripts/openapi-spec.js';
import { CLIENT_SCHEMA_FILE, OPENAPI_FILE } from '../../../scripts/paths.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The first line where two texts differ, for a readable failure. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const i = left.findIndex((line, n) => line !== right[n]);
  const n = i < 0 ? Math.min(left.length, right.length) : i;
  return `line ${n + 1}: committed ${JSON.stringify(left[n])}, fresh ${JSON.stringify(right[n])}`;
}

/** The health routes and the client settings (whether a key is needed): public, and answering only 200 or 503. */
const HEALTH = ['GET /health', 'GET /health/ready', 'GET /api/settings'];
/** Public routes besides health: a share link is read without a key (and limited per address). */
const PUBLIC = [...HEALTH, 'GET /api/shared/{token}'];

describe('OpenAPI document (docs/openapi.json) and the generated client', () => {
  let fresh: string;
  const committed = readFileSync(OPENAPI_FILE, 'utf8');
  const spec: Json = JSON.parse(committed);
  const operations = Object.entries(spec.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      route: `${method.toUpperCase()} ${path}`,
      op: item[method] as Json,
    })),
  );

  beforeAll(async () => {
    fresh = await buildOpenApiSpec();
  });

  it('is what the decorators produce (else run: npm run openapi && npm run client:generate)', () => {
    if (fresh !== committed) {
      throw new Error(
        `docs/openapi.json is stale, ${firstDifference(committed, fresh)}: run npm run openapi && npm run client:generate`,
      );
    }
  });

  it('is generated deterministically, with sorted keys', async () => {
    expect(await buildOpenApiSpec()).toBe(fresh);
    expect(Object.keys(spec.paths)).toEqual([...Object.keys(spec.paths)].sort());
    expect(Object.keys(spec.components.schemas)).toEqual([...Object.keys(spec.components.schemas)].sort());
  });

  it('has the client types generated from it (else run: npm run client:generate)', async () => {
    const schema = await generateClientSchema(committed);
    if (schema !== readFileSync(CLIENT_SCHEMA_FILE, 'utf8')) {
      throw new Error('clients/typescript/src/schema.ts is stale: run npm run client:generate');
    }
  });

  it('gives every operation a unique operationId, a tag, a summary and a success answer with a schema', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { route, op } of operations) {
      expect({ route, id: typeof op.operationId, summary: typeof op.summary }).toEqual({
        route,
        id: 'string',
        summary: 'string',
      });
      expect({ route, tagged: op.tags?.length > 0 }).toEqual({ route, tagged: true });
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      // Resuming a useChat stream answers the stream, or 204 when there is none (as the AI SDK expects).
      expect({ route, success: success.length }).toEqual({
        route,
        success: route === 'GET /api/ui/chat/{id}/stream' ? 2 : 1,
      });
      const answer = op.responses[success[0]];
      if (success[0] !== '204')
        expect({ route, schemas: Object.values(answer.content ?? { none: {} }).every((c: any) => c.schema) }).toEqual({
          route,
          schemas: true,
        });
      for (const body of Object.values((op.requestBody?.content ?? {}) as Json))
        expect({ route, body: Boolean(body.schema) }).toEqual({ route, body: true });
    }
  });

  it('has every operationId listed in docs/api.md, and a description Swagger UI shows whole', () => {
    const apiDoc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    const listed = /Operation ids:\n([\s\S]*?)\.\s/.exec(apiDoc)?.[1] ?? '';
    const missing = operations.map(({ op }) => op.operationId as string).filter((id) => !listed.includes(`\`${id}\``));
    expect(missing).toEqual([]);
    // Markdown outside a code span reads <API key> as an HTML tag, which Swagger UI drops.
    const outsideCode = (spec.info.description as string).replace(/`[^`]*`/g, '');
    expect(outsideCode).not.toMatch(/<[A-Za-z]/);
  });

  it('gives every operation a description, beside its summary (Spectral and Redocly: operation-description)', () => {
    const bare = operations
      .filter(({ op }) => typeof op.description !== 'string' || op.description.trim() === '')
      .map(({ route }) => route);
    expect(bare).toEqual([]);
  });

  it('lists every code an error body can carry in the error tables of docs/api.md', () => {
    const apiDoc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    const section = /### Error codes\n([\s\S]*?)\n### /.exec(apiDoc)?.[1] ?? '';
    expect(ERROR_BODY_CODES.filter((code) => !section.includes(`\`${code}\``))).toEqual([]);
  });

  it("gives a client generated with openapi-typescript's defaults optional request fields where the server has a default", async () => {
    // The common way: no options, so defaultNonNullable is on and a property with a `default` becomes required.
    const schema = astToString(await openapiTS(JSON.parse(committed), {}));
    const calls = [
      "const chat: components['schemas']['ChatRequestDto'] = { message: 'hi' };",
      "const regenerate: components['schemas']['RegenerateRequestDto'] = {};",
      "const created: components['schemas']['CreateConversationDto'] = {};",
      "const ui: components['schemas']['UiChatRequestDto'] = { id: 'c1', messages: [] };",
      'export { chat, regenerate, created, ui };',
    ].join('\n');
    const files: Record<string, string> = {
      '/schema.ts': schema,
      '/calls.ts': `import type { components } from './schema.js';\n${calls}\n`,
    };
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const read = host.readFile.bind(host);
    host.readFile = (name) =>
      name.replace(/\.js$/, '.ts') in files ? files[name.replace(/\.js$/, '.ts')] : read(name);
    host.fileExists = (
      (exists) => (name: string) =>
        name in files || exists(name)
    )(host.fileExists.bind(host));
    const getSource = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) =>
      name in files ? ts.createSourceFile(name, files[name], version) : getSource(name, version);
    const program = ts.createProgram(['/calls.ts'], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('types every property the server reads as a number as a number (a bare decorator on `number | null` used to give type: object)', () => {
    const loose: string[] = [];
    for (const [name, schema] of Object.entries(
      spec.components.schemas as Record<
        string,
        { properties?: Record<string, { type?: string; minimum?: number; maximum?: number }> }
      >,
    )) {
      for (const [property, p] of Object.entries(schema.properties ?? {})) {
        if ((p.minimum !== undefined || p.maximum !== undefined) && p.type !== 'integer' && p.type !== 'number')
          loose.push(`${name}.${property}`);
      }
    }
    expect(loose).toEqual([]);
    for (const name of ['CreateAgentDto', 'UpdateAgentDto', 'AgentDto', 'ExportedAgentDto']) {
      expect({ name, type: spec.components.schemas[name].properties.contextTokenBudget.type }).toEqual({
        name,
        type: 'integer',
      });
    }
  });

  it('documents the error answers of every operation as JSON error bodies', () => {
    for (const { route, op } of operations) {
      const errors = Object.keys(op.responses).filter((s) => /^[45]/.test(s));
      const expected = HEALTH.includes(route)
        ? ['400', '403', '413', '415', '503']
        : expect.arrayContaining(
            PUBLIC.includes(route)
              ? ['400', '403', '404', '413', '415', '429', '503']
              : ['400', '401', '403', '413', '415', '503'],
          );
      expect({ route, errors }).toEqual({ route, errors: expected });
      for (const status of errors) {
        expect({ route, status, content: Object.keys(op.responses[status].content) }).toEqual({
          route,
          status,
          content: ['application/json'],
        });
      }
      expect({ route, auth: op.security }).toEqual({ route, auth: PUBLIC.includes(route) ? [] : [{ bearer: [] }] });
    }
  });

  it('describes the streaming routes as text/event-stream: a string body, its events named in x-sse-events', () => {
    const all = operations.filter(({ op }) => op.responses['200']?.content?.['text/event-stream']);
    // The useChat routes speak the AI SDK's UI message stream, described in their own words.
    const streams = all.filter(({ op }) => !op.tags.includes('ui-chat'));
    expect(
      all
        .filter(({ op }) => op.tags.includes('ui-chat'))
        .map((s) => s.op.operationId)
        .sort(),
    ).toEqual(['uiChat', 'uiChatResume']);
    expect(streams.map((s) => s.op.operationId).sort()).toEqual([
      'chatStream',
      'editMessageStream',
      'followMessage',
      'regenerateReplyStream',
    ]);
    for (const { op } of streams) {
      const media = op.responses['200'].content['text/event-stream'];
      // What a validator and a generator read: the body is text, not an object with an `event` field.
      expect(media.schema.type).toBe('string');
      const events = Object.fromEntries(
        Object.entries(media['x-sse-events'] as Record<string, Json>).map(([name, r]) => [
          name,
          r.$ref.split('/').pop(),
        ]),
      );
      expect(events).toMatchObject({ delta: 'StreamDeltaEvent', done: 'StreamDoneEvent', error: 'StreamErrorEvent' });
    }
    expect(spec.components.schemas.StreamErrorData.required).toEqual(
      expect.arrayContaining(['statusCode', 'code', 'message']),
    );
  });

  it("describes the useChat streams' events: one UIMessageChunk per `data:` line, as the ai package defines them, then [DONE]", () => {
    for (const { op } of operations.filter(
      ({ op }) => op.tags.includes('ui-chat') && op.responses['200']?.content?.['text/event-stream'],
    )) {
      const media = op.responses['200'].content['text/event-stream'];
      expect(media.schema.type).toBe('string');
      expect(media['x-sse-end']).toBe('[DONE]');
      const chunks = media['x-sse-events'].message.properties.data.oneOf as Json[];
      const types = chunks.map((c) => c.properties.type.enum?.[0] ?? c.properties.type.pattern);
      expect(types).toEqual([
        'start',
        'start-step',
        'text-start',
        'text-delta',
        'text-end',
        '^data-',
        'tool-input-start',
        'tool-input-available',
        'tool-approval-request',
        'tool-output-available',
        'tool-output-denied',
        'finish-step',
        'finish',
        'message-metadata',
        'abort',
        'error',
      ]);
    }
  });
});
