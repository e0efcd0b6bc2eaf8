import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;
const SPEC_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
// ajv-formats is CommonJS: under ESM its function is the default export's default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/**
 * An OpenAPI 3.0 schema as the JSON Schema a strict 3.0 validator applies: `nullable: true`
 * adds null to the `type` beside it and to nothing else (OpenAPI 3.0.3); without a `type` it
 * allows nothing more. Annotations ajv does not know are dropped.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (
      key === 'nullable' ||
      key === 'example' ||
      key === 'examples' ||
      key === 'xml' ||
      key === 'externalDocs' ||
      key === 'deprecated'
    )
      continue;
    // Names of properties are data, not keywords.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toJsonSchema(v)]))
        : toJsonSchema(value);
  }
  if ((schema as Json).nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** One operation of the document, found from a request's method and path. */
export interface SpecOperation {
  readonly method: string;
  readonly template: string;
  readonly operation: Json;
}

/**
 * Checks requests and answers against the committed docs/openapi.json with ajv (all errors,
 * formats checked), reading the document as strict OpenAPI 3.0.3.
 */
export class OpenApiContract {
  readonly spec: Json = JSON.parse(readFileSync(SPEC_FILE, 'utf8'));
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: toJsonSchema(this.spec.components) as Json });
  }

  /** The operation a request reaches: a literal path segment wins over a `{param}`. */
  operationOf(method: string, url: string): SpecOperation | null {
    const path = url.split('?')[0];
    const matches = Object.entries(this.spec.paths as Json)
      .filter(([template, item]) => item[method.toLowerCase()] && templateRegex(template).test(path))
      .sort(([a], [b]) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    if (!matches.length) return null;
    const [template, item] = matches[0];
    return { method: method.toLowerCase(), template, operation: item[method.toLowerCase()] };
  }

  /** Where a value departs from a schema of the document (empty: it conforms). */
  problems(schema: unknown, value: unknown, at = 'body'): string[] {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(toJsonSchema(schema)) as Json);
      this.compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${at}${e.instancePath} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  }

  /** A request as a client would send it: path and query parameters, and the JSON body. */
  requestProblems(method: string, url: string, body: unknown): string[] {
    const found = this.operationOf(method, url);
    if (!found) return [`${method.toUpperCase()} ${url.split('?')[0]} is not in the document`];
    const { operation, template } = found;
    const problems: string[] = [];
    const pathValues = templateRegex(template).exec(url.split('?')[0])!.slice(1);
    const pathNames = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      const value =
        parameter.in === 'path'
          ? pathValues[pathNames.indexOf(parameter.name)]
          : parameter.in === 'query'
            ? query.get(parameter.name)
            : undefined;
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      if (value === undefined || value === null) {
        if (parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} is missing`);
        continue;
      }
      problems.push(
        ...this.problems(parameter.schema, coerce(value, parameter.schema), `${parameter.in}.${parameter.name}`),
      );
    }
    const documented = new Set(
      ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query').map((p) => p.name),
    );
    for (const name of query.keys())
      if (!documented.has(name)) problems.push(`query parameter ${name} is not documented`);
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    if (body !== undefined) {
      if (!schema) problems.push('a body is sent, none is documented');
      else problems.push(...this.problems(schema, body));
    } else if (operation.requestBody?.required) problems.push('the body is missing');
    return problems;
  }

  /** An answer: its status is documented, its documented headers are there and valid, its body fits. */
  responseProblems(
    method: string,
    url: string,
    status: number,
    headers: Record<string, unknown>,
    body: unknown,
    mediaType: string,
  ): string[] {
    const found = this.operationOf(method, url);
    if (!found) return [`${method.toUpperCase()} ${url.split('?')[0]} is not in the document`];
    const response = found.operation.responses?.[String(status)] ?? found.operation.responses?.default;
    if (!response) return [`${found.operation.operationId}: status ${status} is not documented`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${found.operation.operationId} ${status}: header ${name} is missing`);
        continue;
      }
      if (header.schema)
        problems.push(...this.problems(header.schema, coerce(String(value), header.schema), `header ${name}`));
    }
    const content = response.content as Json | undefined;
    if (!content) {
      if (body !== undefined && body !== '')
        problems.push(`${found.operation.operationId} ${status}: a body is sent, none is documented`);
      return problems;
    }
    const schema = content[mediaType]?.schema;
    if (!schema)
      return [
        ...problems,
        `${found.operation.operationId} ${status}: ${mediaType} is not documented (${Object.keys(content).join(', ')})`,
      ];
    if (mediaType === 'application/json')
      problems.push(...this.problems(schema, body).map((p) => `${found.operation.operationId} ${status}: ${p}`));
    if (mediaType === 'text/event-stream' && typeof body === 'string' && content[mediaType]['x-sse-events'])
      problems.push(...this.eventProblems(found.operation, content[mediaType], body));
    return problems;
  }

  /**
   * The events of a server-sent event body, each checked against the schema `x-sse-events`
   * names for it as `{ event, data }` with `data` parsed. A stream cut short (its last event
   * unfinished) is checked up to its last whole event.
   */
  private eventProblems(operation: Json, media: Json, text: string): string[] {
    const events = (media['x-sse-events'] ?? {}) as Record<string, Json>;
    const problems: string[] = [];
    const blocks = text.replace(/\r\n?/g, '\n').split('\n\n').slice(0, -1);
    for (const block of blocks) {
      const lines = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
      if (!lines.length) continue;
      const name =
        lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message';
      const dataText = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      const at = `${operation.operationId} event ${name}`;
      // A stream's documented last data (the UI message stream's `[DONE]`) is not JSON.
      if (media['x-sse-end'] !== undefined && dataText === media['x-sse-end']) continue;
      if (!events[name]) {
        problems.push(`${at}: not in x-sse-events (${Object.keys(events).join(', ')})`);
        continue;
      }
      let data: unknown;
      try {
        data = JSON.parse(dataText);
      } catch {
        problems.push(`${at}: data is not JSON: ${dataText.slice(0, 80)}`);
        continue;
      }
      problems.push(...this.problems(events[name], { event: name, data }, 'event').map((p) => `${at}: ${p}`));
    }
    return problems;
  }

  /** Every operation, as `METHOD /template`. */
  operations(): SpecOperation[] {
    return Object.entries(this.spec.paths as Json).flatMap(([template, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ method, template, operation: item[method] as Json })),
    );
  }
}

function templateRegex(template: string): RegExp {
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '([^/]+)');
  return new RegExp(`^${source}$`);
}

/** `#/components/...` inside the document, as seen from a schema compiled apart from it. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Json).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v),
    ]),
  );
}

/** A parameter or header is text: read it as the type its schema names. */
function coerce(value: string, schema: Json | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
