import type { OpenAPIObject } from '@nestjs/swagger';
import { NO_NUL_PATTERN } from './dto/text-patterns.js';

interface Schema {
  $ref?: string;
  default?: unknown;
  description?: string;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}
interface Operation {
  operationId?: string;
  responses?: unknown;
  parameters?: { in?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** Bodies the server reads with its own parser, not the validation pipe: unknown fields pass there. */
const OWN_PARSER = new Set(['importConversation']);

/**
 * Says in the document what the server enforces on requests but the swagger module does not
 * infer: every path parameter is a UUID (each goes through ParseUUIDPipe), and a JSON body
 * validated by the pipe (whitelist, forbidNonWhitelisted) refuses unknown fields, nested
 * objects too. Free-form objects (the session state) have no `properties` and stay open.
 * The contract spec checks both against the server. A request field's default is said in
 * words (see defaultsInWords).
 */
export function documentRequestRules(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const closed = new Set<string>();
  const close = (schema: Schema | undefined): void => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop() ?? '';
      if (closed.has(name)) return;
      closed.add(name);
      return close(schemas[name]);
    }
    if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const nested of Object.values(schema.properties ?? {})) close(nested);
    close(schema.items);
    for (const list of [schema.allOf, schema.anyOf, schema.oneOf]) for (const s of list ?? []) close(s);
  };
  // No string of a JSON body (json-body-check.ts) or a query holds NUL: said on each free text.
  const seen = new Set<string>();
  const noNul = (schema: Schema | undefined): void => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop() ?? '';
      if (seen.has(name)) return;
      seen.add(name);
      return noNul(schemas[name]);
    }
    if (schema.type === 'string' && !schema.pattern && !schema.format && !schema.enum && !schema.anyOf)
      schema.pattern = NO_NUL_PATTERN;
    for (const nested of Object.values(schema.properties ?? {})) noNul(nested);
    noNul(schema.items);
    for (const list of [schema.allOf, schema.anyOf, schema.oneOf]) for (const s of list ?? []) noNul(s);
  };
  // A request field the server fills in when it is absent: said in its description, not as `default`, which
  // openapi-typescript's default settings (and other generators) turn into a field the client must send.
  const worded = new Set<string>();
  const defaultsInWords = (schema: Schema | undefined): void => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop() ?? '';
      if (worded.has(name)) return;
      worded.add(name);
      return defaultsInWords(schemas[name]);
    }
    for (const property of Object.values(schema.properties ?? {})) {
      if (property && typeof property === 'object' && 'default' in property) {
        const said = `Default: \`${typeof property.default === 'string' ? property.default : JSON.stringify(property.default)}\`.`;
        property.description = property.description ? `${property.description} ${said}` : said;
        delete property.default;
      }
      defaultsInWords(property);
    }
    defaultsInWords(schema.items);
    for (const list of [schema.allOf, schema.anyOf, schema.oneOf]) for (const s of list ?? []) defaultsInWords(s);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      for (const parameter of operation.parameters ?? []) {
        // Path ids are UUIDs, but for a path parameter that states its own shape: a pattern (a useChat chat id) or a length (a share token, any text).
        if (
          parameter.in === 'path' &&
          parameter.schema?.type === 'string' &&
          !parameter.schema.pattern &&
          (parameter.schema as { minLength?: number }).minLength === undefined
        )
          parameter.schema.format = 'uuid';
        if (parameter.in === 'query') noNul(parameter.schema);
      }
      noNul(operation.requestBody?.content?.['application/json']?.schema);
      defaultsInWords(operation.requestBody?.content?.['application/json']?.schema);
      if (OWN_PARSER.has(operation.operationId ?? '')) continue;
      close(operation.requestBody?.content?.['application/json']?.schema);
    }
  }
}
