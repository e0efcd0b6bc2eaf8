import * as fc from 'fast-check';
import type { Response } from 'supertest';
import { OpenApiContract, type SpecOperation } from '../../support/openapi-contract.js';
import { invalidValue, validValue, type Broken } from '../../support/schema-arbitrary.js';
import { routePath } from '../../support/spec-routes.js';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

/**
 * Requests generated from docs/openapi.json itself, sent to the real app (echo model):
 * - valid ones (every value the document's schemas allow) are accepted: a success, or an answer
 *   the document lists that is not a refusal of the request's shape (404 for an id that is no
 *   resource of the caller's, 409 for a quota);
 * - invalid ones, with exactly one constraint broken (a wrong type, a missing required field, an
 *   unknown property or query parameter, a string too long, a bad uuid, an integer out of range,
 *   a duplicate in a uniqueItems array...), are refused with 400 and a JSON error body with a code.
 * Every operation with a JSON body is covered, and the query parameters of every GET. Every answer
 * is also checked against the document by test/support/answer-check.ts.
 * PROPERTY_RUNS and PROPERTY_SEED change the runs (a failure prints its seed and path).
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);
const SEED = Number(process.env.PROPERTY_SEED ?? 23_2026);
const contract = new OpenApiContract();
const components = contract.spec.components;

/**
 * Answers a valid request may get besides a success, per operation: refusals of what a JSON schema
 * cannot say (a rule between resources, or of a document's content), each with its own code.
 */
const NOT_A_REFUSAL_OF_THE_SHAPE: Record<string, string[]> = {
  // An agent whose contextTokenBudget is smaller than its systemPrompt leaves no room for a message.
  chat: ['context_over_budget', 'model_not_offered'],
  chatStream: ['context_over_budget', 'model_not_offered'],
  editMessage: ['context_over_budget'],
  editMessageStream: ['context_over_budget'],
  regenerateReply: ['context_over_budget'],
  regenerateReplyStream: ['context_over_budget'],
  uiChat: ['context_over_budget'],
  // The models offered are the server's configuration (LLM_MODELS), not the request's shape.
  createConversation: ['model_not_offered'],
  updateConversation: ['model_not_offered'],
  // A document's own consistency (seq order, parents, threads) is checked after its shape.
  importConversation: ['import_rejected'],
  importArchive: ['import_rejected', 'archive_format_unknown', 'archive_malformed'],
};

/** The ids a generated request may point at, fetched once the app runs. */
interface Fixtures {
  conversation: string;
  reply: string;
  question: string;
  agent: string;
  memory: string;
  chatId: string;
  conversationsCursor: string;
  memoriesCursor: string;
  agentsCursor: string;
}

/** A request of one operation: its URL (path and query), body, and for an invalid one what is broken. */
interface GeneratedRequest {
  readonly url: string;
  readonly body?: unknown;
  readonly broken?: string;
}

const parametersOf = (op: SpecOperation, where: 'query' | 'path') =>
  ((op.operation.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema: any }>).filter(
    (p) => p.in === where,
  );
const bodySchemaOf = (op: SpecOperation) =>
  op.operation.requestBody?.content?.['application/json']?.schema as object | undefined;

/**
 * Rules the document states in words between fields (a JSON schema of OpenAPI 3.0 cannot), applied
 * to the generated valid bodies, so that a refusal by one of them is not counted as a disagreement.
 */
function followRulesInWords(operationId: string, body: any, fx: Fixtures): any {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out = { ...body };
  if (operationId === 'chat' || operationId === 'chatStream') {
    // "On an existing conversation it must be the conversation's agent"; a parent is a message of the conversation.
    // A parent is a message of the conversation, in the thread of the turn (the fixtures' are in main).
    if (out.parentMessageId !== undefined) {
      out.conversationId = fx.conversation;
      delete out.thread;
    }
    if (out.conversationId !== undefined) delete out.agentId;
  }
  if (operationId === 'uiChat') {
    // "Only the last one is read: a user message with text parts"; submit-message needs one.
    const question = { id: 'q1', role: 'user', parts: [{ type: 'text', text: 'a generated question' }] };
    if (out.message !== undefined) out.message = { ...out.message, ...question };
    else out.messages = [...(out.messages ?? []), question];
    if (out.id !== fx.chatId) delete out.agentId;
    if (out.messageId !== undefined) out.messageId = fx.question;
    // A client tool's name is a key of `tools`, which OpenAPI 3.0 cannot constrain (no propertyNames);
    // declared tools have their own tests (ui-chat-tools.e2e-spec.ts).
    delete out.tools;
  }
  if (operationId === 'createShare' && out.expiresAt !== undefined && new Date(out.expiresAt) <= new Date()) {
    // "expiresAt: in the future".
    delete out.expiresAt;
  }
  return out;
}

/** The same for query parameters. */
function followQueryRulesInWords(operationId: string, pairs: Array<[string, string]>): Array<[string, string]> {
  const from = pairs.find(([n]) => n === 'from')?.[1];
  const to = pairs.find(([n]) => n === 'to')?.[1];
  // `from` is before `to`, which is now when absent.
  if (
    operationId === 'getUsage' &&
    from !== undefined &&
    new Date(from) >= (to === undefined ? new Date() : new Date(to))
  )
    return pairs.filter(([n]) => n !== 'from');
  // "With q, results ... come in one page": a search takes no cursor, nor (conversations) filters.
  const q = pairs.some(([n]) => n === 'q');
  if (q && operationId === 'listConversations')
    return pairs.filter(([n]) => !['cursor', 'agentId', 'archived', 'pinned', 'pinnedFirst', 'tag'].includes(n));
  // A cursor keeps the order it was made in: the fixture's is of the plain order, not pinnedFirst's.
  if (operationId === 'listConversations' && pairs.some(([n, v]) => n === 'pinnedFirst' && String(v) === 'true'))
    return pairs.filter(([n]) => n !== 'cursor');
  if (q && operationId === 'listMemories') return pairs.filter(([n]) => n !== 'cursor');
  // "The nextCursor of the previous page of the same search": a cursor belongs to its query and filters.
  if (operationId === 'searchMessages') return pairs.filter(([n]) => n !== 'cursor');
  return pairs;
}

describe('requests generated from docs/openapi.json: the valid accepted, the invalid refused with 400', () => {
  const fixture = useApp();
  let t: TestApp;
  let fx: Fixtures;

  const send = (method: string, url: string, body?: unknown): Promise<Response> => {
    const req = t.http()[method as 'get'](url).set(auth(ALICE_KEY));
    return body === undefined ? req : req.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  beforeAll(async () => {
    t = fixture.app;
    const ok = async (method: string, url: string, body?: unknown) => {
      const res = await send(method, url, body);
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
      return res.body;
    };
    const agent = (await ok('post', '/api/agents', { name: 'Generated', tools: ['update_state'] })).id;
    await ok('post', '/api/agents', { name: 'Generated too' });
    const turn = await ok('post', '/api/chat', { message: 'a first question' });
    await ok('post', '/api/chat', { message: 'another conversation' });
    await ok('post', '/api/ui/chat', {
      id: 'generated-chat',
      message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    });
    const memory = (await ok('post', '/api/memories', { text: 'Likes tea' })).id;
    await ok('post', '/api/memories', { text: 'Likes trains' });
    fx = {
      conversation: turn.conversationId,
      reply: turn.messageId,
      question: turn.userMessageId,
      agent,
      memory,
      chatId: 'generated-chat',
      conversationsCursor: (await ok('get', '/api/conversations?limit=1')).nextCursor,
      memoriesCursor: (await ok('get', '/api/memories?limit=1')).nextCursor,
      agentsCursor: (await ok('get', '/api/agents?limit=1')).nextCursor,
    };
  });

  /** Options of the generators: uuids are mostly the fixtures' ids, so requests reach real resources. */
  // optionalNull: the server reads null in an optional property as absent (class-validator's IsOptional).
  const options = () => ({
    components,
    optionalNull: 'absent' as const,
    formats: { uuid: fc.constantFrom(fx.conversation, fx.reply, fx.question, fx.agent, fx.memory) },
  });

  /** Opaque values only the server makes: a generated one is any text, which it cannot have returned. */
  const opaque = (name: string, operationId: string): fc.Arbitrary<string> | null =>
    name === 'cursor'
      ? fc.constant(
          { listMemories: fx.memoriesCursor, listAgents: fx.agentsCursor }[operationId] ?? fx.conversationsCursor,
        )
      : null;

  const pathOf = (op: SpecOperation) =>
    op.template.startsWith('/api/ui/chat/')
      ? op.template.replace('{id}', fx.chatId)
      : // The path alone: its query is generated here from the document (routePath gives a required one for the other specs).
        routePath(
          { method: op.method as 'get', path: op.template, operationId: op.operation.operationId },
          {
            conversation: fx.conversation,
            message: fx.reply,
            userMessage: fx.question,
            agent: fx.agent,
            memory: fx.memory,
          },
        ).split('?')[0];

  const withQuery = (path: string, query: Array<[string, string]>) =>
    query.length ? `${path}?${new URLSearchParams(query).toString()}` : path;

  /** Valid query parameters: each optional one present or not. */
  function validQuery(op: SpecOperation): fc.Arbitrary<Array<[string, string]>> {
    const parameters = parametersOf(op, 'query');
    const entries = parameters.map((p) => {
      const value = (opaque(p.name, op.operation.operationId) ??
        validValue(p.schema, { ...options(), mode: 'query' })) as fc.Arbitrary<string>;
      return (p.required ? value : fc.option(value, { nil: undefined })).map((v) =>
        v === undefined ? [] : [[p.name, v] as [string, string]],
      );
    });
    return fc.tuple(...entries).map((pairs) => followQueryRulesInWords(op.operation.operationId, pairs.flat()));
  }

  function validRequest(op: SpecOperation): fc.Arbitrary<GeneratedRequest> {
    const schema = bodySchemaOf(op);
    const body = schema
      ? validValue(schema, options()).map((b) => followRulesInWords(op.operation.operationId, b, fx))
      : fc.constant(undefined);
    return fc.tuple(validQuery(op), body).map(([query, b]) => ({ url: withQuery(pathOf(op), query), body: b }));
  }

  /** One constraint broken: of the body, of one query parameter, an unknown query parameter, or a path id. */
  function invalidRequest(op: SpecOperation): fc.Arbitrary<GeneratedRequest> {
    const ways: fc.Arbitrary<GeneratedRequest>[] = [];
    const schema = bodySchemaOf(op);
    const validBody = schema
      ? validValue(schema, options()).map((b) => followRulesInWords(op.operation.operationId, b, fx))
      : fc.constant(undefined);
    const brokenBody = schema ? invalidValue(schema, options()) : null;
    if (brokenBody)
      ways.push(
        fc
          .tuple(validQuery(op), brokenBody)
          .map(([query, b]) => ({ url: withQuery(pathOf(op), query), body: b.value, broken: `body ${b.broken}` })),
      );
    for (const p of parametersOf(op, 'query')) {
      const broken = invalidValue(p.schema, { ...options(), mode: 'query' });
      if (!broken) continue;
      ways.push(
        fc
          .tuple(validQuery(op), broken, validBody)
          .map(([query, b, body]: [Array<[string, string]>, Broken, unknown]) => ({
            url: withQuery(pathOf(op), [...query.filter(([n]) => n !== p.name), [p.name, String(b.value)]]),
            body,
            broken: `query ${p.name} ${b.broken}`,
          })),
      );
    }
    if (op.method === 'get') {
      ways.push(
        fc.tuple(validQuery(op), fc.constantFrom('unknown', 'limits', 'Thread', 'page')).map(([query, name]) => ({
          url: withQuery(pathOf(op), [...query, [name, '1']]),
          broken: `query ${name}: not a documented parameter`,
        })),
      );
    }
    for (const p of parametersOf(op, 'path')) {
      // An empty or dot segment is another path (Express normalises it), not a bad id.
      const broken = invalidValue(p.schema, { ...options(), mode: 'query' })?.filter(
        (b) => String(b.value) !== '' && !/^\.+$/.test(String(b.value)),
      );
      if (!broken) continue;
      ways.push(
        fc.tuple(broken, validBody).map(([b, body]) => {
          const path = pathOf({ ...op, template: op.template.replace(`{${p.name}}`, '\u0000') }).replace(
            '\u0000',
            encodeURIComponent(String(b.value)),
          );
          return { url: path, body, broken: `path ${p.name} ${b.broken}` };
        }),
      );
    }
    return fc.oneof(...ways);
  }

  /** Every operation with a JSON body, and every GET with query parameters. */
  const covered = contract
    .operations()
    .filter((op) => bodySchemaOf(op) || (op.method === 'get' && parametersOf(op, 'query').length));

  it('covers every operation with a JSON request body and every GET with query parameters', () => {
    const ids = covered.map((op) => op.operation.operationId);
    expect(ids).toEqual(
      expect.arrayContaining([
        'chat',
        'createAgent',
        'uiChat',
        'importMemories',
        'listConversations',
        'listMemories',
        'getUsage',
        'listMessages',
      ]),
    );
    expect(ids.length).toBeGreaterThanOrEqual(30);
  });

  const TIMEOUT_MS = 60_000 + RUNS * 3_000;

  it.each(covered.map((op) => [`${op.method.toUpperCase()} ${op.template} (${op.operation.operationId})`, op]))(
    '%s: valid requests are accepted',
    async (_name, op) => {
      const allowed = NOT_A_REFUSAL_OF_THE_SHAPE[op.operation.operationId] ?? [];
      await fc.assert(
        fc.asyncProperty(validRequest(op), async (req) => {
          expect({ document: contract.requestProblems(op.method, req.url, req.body) }).toEqual({ document: [] });
          const res = await send(op.method, req.url, req.body);
          const code = res.body?.code;
          const accepted =
            res.status < 300 ||
            res.status === 404 ||
            res.status === 409 ||
            (res.status === 400 && allowed.includes(code));
          if (!accepted)
            throw new Error(
              `a valid request refused: ${op.method.toUpperCase()} ${req.url} ${JSON.stringify(req.body)?.slice(0, 600)}\n-> ${res.status} ${res.text.slice(0, 400)}`,
            );
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    TIMEOUT_MS,
  );

  it.each(covered.map((op) => [`${op.method.toUpperCase()} ${op.template} (${op.operation.operationId})`, op]))(
    '%s: requests with one constraint broken are refused with 400 and a code',
    async (_name, op) => {
      await fc.assert(
        fc.asyncProperty(invalidRequest(op), async (req) => {
          // The generator's own check: the document refuses what it calls broken.
          expect({
            broken: req.broken,
            documentRefuses: contract.requestProblems(op.method, req.url, req.body).length > 0,
          }).toEqual({ broken: req.broken, documentRefuses: true });
          const res = await send(op.method, req.url, req.body);
          if (res.status !== 400 || typeof res.body?.code !== 'string') {
            throw new Error(
              `${req.broken}: ${op.method.toUpperCase()} ${req.url} ${JSON.stringify(req.body)?.slice(0, 600)}\n-> ${res.status} ${res.text.slice(0, 400)}`,
            );
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    TIMEOUT_MS,
  );
});
