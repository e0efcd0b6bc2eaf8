import * as fc from 'fast-check';
import { OpenApiContract } from '../../support/openapi-contract.js';
import { invalidValue, validValue, UnsupportedSchemaError, type Broken } from '../../support/schema-arbitrary.js';

/**
 * The schema->arbitrary module the property test builds on, checked against the strict
 * validator of the document (ajv): what it calls valid is valid, what it calls broken is
 * refused, for every request schema of docs/openapi.json and for small schemas of each keyword.
 */
const contract = new OpenApiContract();
const components = contract.spec.components;
const SEED = 20261201;
const params = { numRuns: 60, seed: SEED };

const requestSchemas = contract.operations().flatMap(({ operation }) => [
  ...(operation.requestBody?.content?.['application/json']?.schema
    ? [
        {
          at: `${operation.operationId} body`,
          schema: operation.requestBody.content['application/json'].schema,
          mode: 'json' as const,
        },
      ]
    : []),
  ...((operation.parameters ?? []) as Array<{ in: string; name: string; schema: object }>)
    .filter((p) => p.in === 'query' || p.in === 'path')
    .map((p) => ({ at: `${operation.operationId} ${p.in} ${p.name}`, schema: p.schema, mode: 'query' as const })),
]);

/** A query text as ajv sees it in a request: typed as its schema says (as OpenApiContract reads parameters). */
const asSent = (value: unknown, schema: any, mode: 'json' | 'query') =>
  mode === 'query' ? contract.problems(schema, coerce(String(value), schema)) : contract.problems(schema, value);
function coerce(value: string, schema: any): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

describe('schema-arbitrary: values generated from the JSON schemas of docs/openapi.json', () => {
  it('covers every request body and query or path parameter of the document', () => {
    expect(requestSchemas.length).toBeGreaterThan(40);
  });

  it.each(requestSchemas.map((r) => [r.at, r]))(
    '%s: valid values pass the strict validator',
    (_at, { schema, mode }) => {
      fc.assert(
        fc.property(validValue(schema, { components, mode }), (value) => {
          expect(asSent(value, schema, mode)).toEqual([]);
          if (mode === 'query') expect(typeof value).toBe('string');
        }),
        params,
      );
    },
  );

  it.each(requestSchemas.map((r) => [r.at, r]))(
    '%s: broken values are refused by the strict validator',
    (_at, { schema, mode }) => {
      const invalid = invalidValue(schema, { components, mode });
      if (!invalid) return;
      fc.assert(
        fc.property(invalid, (b: Broken) => {
          expect({ broken: b.broken, refused: asSent(b.value, schema, mode).length > 0 }).toEqual({
            broken: b.broken,
            refused: true,
          });
        }),
        params,
      );
    },
  );

  it('breaks each kind of constraint the document uses', () => {
    const kinds = new Set<string>();
    for (const { schema, mode } of requestSchemas) {
      const invalid = invalidValue(schema, { components, mode });
      if (!invalid) continue;
      for (const b of fc.sample(invalid, { numRuns: 300, seed: SEED })) kinds.add(b.broken.replace(/^.*?: /, ''));
    }
    const all = [...kinds].join('\n');
    for (const expected of [
      'not of type',
      'required',
      'unknown',
      'longer than maxLength',
      'not a uuid',
      'an integer above maximum',
      'an integer below minimum',
      'a fraction',
      'the same item twice',
      'not matching',
      'null where it is not nullable',
      'a value not in the enum',
      'more than maxItems',
    ]) {
      expect({ expected, found: all.includes(expected) }).toEqual({ expected, found: true });
    }
  });

  it('uses the given values for a format (ids of existing resources) among random ones', () => {
    const known = '6f1c0b7d-5a9e-4f0e-9a53-2d8c1e4b7a10';
    const values = fc.sample(
      validValue({ type: 'string', format: 'uuid' }, { formats: { uuid: fc.constant(known) } }),
      { numRuns: 200, seed: SEED },
    );
    expect(values).toContain(known);
    expect(values.some((v) => v !== known)).toBe(true);
  });

  it('keeps unique items unique and makes the duplicate case hold a duplicate', () => {
    const schema = { type: 'array', uniqueItems: true, maxItems: 3, items: { type: 'string', enum: ['a', 'b', 'c'] } };
    for (const v of fc.sample(validValue(schema), { numRuns: 100, seed: SEED }) as string[][])
      expect(new Set(v).size).toBe(v.length);
    const dupes = fc
      .sample(invalidValue(schema)!, { numRuns: 200, seed: SEED })
      .filter((b) => b.broken.includes('twice'));
    expect(dupes.length).toBeGreaterThan(0);
    for (const b of dupes) expect(new Set(b.value as string[]).size).toBeLessThan((b.value as string[]).length);
  });

  it('counts lengths in code points, as JSON Schema does', () => {
    const schema = { type: 'string', maxLength: 3, minLength: 1 };
    for (const v of fc.sample(validValue(schema), { numRuns: 200, seed: SEED }) as string[])
      expect([...v].length).toBeLessThanOrEqual(3);
    const long = fc
      .sample(invalidValue(schema)!, { numRuns: 200, seed: SEED })
      .filter((b) => b.broken.includes('maxLength'));
    for (const b of long) expect([...(b.value as string)].length).toBe(4);
  });

  it('gives query parameters as text, and breaks their types with text that does not parse', () => {
    const values = fc.sample(validValue({ type: 'integer', minimum: 1, maximum: 5 }, { mode: 'query' }), {
      numRuns: 50,
      seed: SEED,
    });
    expect(values.every((v) => typeof v === 'string' && /^[1-5]$/.test(v as string))).toBe(true);
    const broken = fc.sample(invalidValue({ type: 'boolean' }, { mode: 'query' })!, { numRuns: 50, seed: SEED });
    expect(broken.every((b) => typeof b.value === 'string' && b.value !== 'true' && b.value !== 'false')).toBe(true);
  });

  it('fails loudly on a keyword or format it does not know, so it keeps up with the document', () => {
    expect(() => validValue({ type: 'string', const: 'x' })).toThrow(UnsupportedSchemaError);
    expect(() => validValue({ type: 'string', format: 'email' })).toThrow(/format email/);
    expect(() => invalidValue({ type: 'object', properties: { a: { type: 'integer', multipleOf: 2 } } })).toThrow(
      /multipleOf/,
    );
    expect(() => validValue({ $ref: '#/components/schemas/Nope' }, { components })).toThrow(/cannot resolve/);
    expect(() => validValue({ type: 'null' })).toThrow(/type "null"/);
  });
});
