import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Only `null`, as strict OpenAPI 3.0 validators read it: `nullable` adds null to the `type`
 * beside it, and the enum keeps only null. (`type: 'null'` is OpenAPI 3.1.)
 */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] } as const;

type Schema = Record<string, unknown>;

/**
 * Rewrites every `{ nullable: true, allOf: [{ $ref }] }` that the swagger module writes for a
 * nullable object property into `{ anyOf: [{ $ref }, NULL_ONLY] }`. In OpenAPI 3.0.3 `nullable`
 * never overrides the referenced schema's `type: object`, so strict validators (Prism, a
 * second generator) refused the real `null` values; this form they accept, and
 * openapi-typescript still types it as `T | null`.
 */
export function nullableRefsAsAnyOf(document: OpenAPIObject): void {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const schema = Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, visit(v)]));
    const allOf = schema.allOf;
    if (
      schema.nullable === true &&
      Array.isArray(allOf) &&
      allOf.length === 1 &&
      typeof (allOf[0] as Schema).$ref === 'string'
    ) {
      const { nullable: _nullable, allOf: _allOf, type: _type, ...rest } = schema;
      return { ...rest, anyOf: [allOf[0], { ...NULL_ONLY, enum: [null] }] };
    }
    return schema;
  };
  document.paths = visit(document.paths) as OpenAPIObject['paths'];
  if (document.components) document.components = visit(document.components) as OpenAPIObject['components'];
}
