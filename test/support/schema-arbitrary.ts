import * as fc from 'fast-check';

type Json = Record<string, any>;

/**
 * fast-check arbitraries made from the JSON schemas of an OpenAPI 3.0 document: values a schema
 * accepts, and values that break exactly one of its constraints. Only the keywords our document
 * uses are known; any other one throws, so that a new keyword in docs/openapi.json makes the
 * property test fail until this module learns it (rather than generating values it never checked).
 */

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set(['description', 'example', 'default', 'title']);
/** Keywords whose constraints are generated and broken. */
const CONSTRAINTS = new Set([
  '$ref',
  'type',
  'nullable',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
]);
const FORMATS = new Set(['uuid', 'date', 'date-time', 'binary']);

export interface SchemaArbitraryOptions {
  /** `components` of the document, for `#/components/schemas/...` references. */
  readonly components?: Json;
  /**
   * `json`: a value of a JSON body. `query`: a query or path parameter, always a string (its
   * wrong-type breaks are texts that do not parse as the type).
   */
  readonly mode?: 'json' | 'query';
  /** Strings of a format to mix in with random ones (e.g. the uuids of existing resources). */
  readonly formats?: Readonly<Record<string, fc.Arbitrary<string>>>;
  /** The longest string, array or map generated where the schema sets no bound (default 12). */
  readonly size?: number;
  /**
   * `absent`: the server reads null in an optional property as if it were absent, so null there is
   * not broken (class-validator's IsOptional). Default `refused`.
   */
  readonly optionalNull?: 'refused' | 'absent';
}

/** A value that breaks one constraint, and which one (for counterexamples). */
export interface Broken {
  readonly value: unknown;
  readonly broken: string;
}

export class UnsupportedSchemaError extends Error {}

/** Values the schema accepts. */
export function validValue(schema: Json, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return new Generator(options).valid(schema, '');
}

/** Values that break exactly one constraint of the schema (or of one of its parts); null: none can be broken. */
export function invalidValue(schema: Json, options: SchemaArbitraryOptions = {}): fc.Arbitrary<Broken> | null {
  return new Generator(options).invalid(schema, '');
}

/** A code point of any plane (one unit of `length` in JSON Schema and class-validator), sometimes a control character. */
const anyCodePoint = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\n', '\t', ' ', '\u00e9', '\ud83d\ude80', '\u202e') },
);

const text = (minLength: number, maxLength: number) => fc.string({ unit: anyCodePoint, minLength, maxLength });

/** JSON Schema counts code points, not UTF-16 units. */
const codePoints = (s: string) => [...s].length;

class Generator {
  private readonly components: Json;
  private readonly mode: 'json' | 'query';
  private readonly size: number;

  constructor(private readonly options: SchemaArbitraryOptions) {
    this.components = options.components ?? {};
    this.mode = options.mode ?? 'json';
    this.size = options.size ?? 12;
  }

  valid(schema: Json, at: string): fc.Arbitrary<unknown> {
    const s = this.resolve(schema, at);
    const base = this.validBase(s, at);
    return nullAllowed(s) && !s.enum
      ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: base })
      : base;
  }

  invalid(schema: Json, at: string): fc.Arbitrary<Broken> | null {
    const s = this.resolve(schema, at);
    const breaks = this.breaks(s, at);
    return breaks.length ? fc.oneof(...breaks) : null;
  }

  private resolve(schema: Json, at: string): Json {
    for (const key of Object.keys(schema)) {
      if (!ANNOTATIONS.has(key) && !CONSTRAINTS.has(key))
        throw new UnsupportedSchemaError(
          `${at || 'schema'}: keyword ${key} is not supported (test/support/schema-arbitrary.ts)`,
        );
    }
    if (schema.format !== undefined && !FORMATS.has(schema.format))
      throw new UnsupportedSchemaError(`${at || 'schema'}: format ${schema.format} is not supported`);
    if (!schema.$ref) return schema;
    const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : this.components.schemas?.[name];
    if (!target) throw new UnsupportedSchemaError(`${at || 'schema'}: cannot resolve ${schema.$ref}`);
    // A $ref with siblings: OpenAPI 3.0 ignores them, and our document has none.
    return this.resolve(target, at);
  }

  private query(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
    return this.mode === 'query' ? value.map((v) => String(v)) : value;
  }

  private validBase(s: Json, at: string): fc.Arbitrary<unknown> {
    if (s.enum) return this.query(fc.constantFrom(...(s.enum as unknown[])));
    if (s.anyOf || s.oneOf) {
      // oneOf: the branches of our document exclude each other by type; values are checked with ajv by the tests.
      const branches = (s.anyOf ?? s.oneOf) as Json[];
      return fc.oneof(...branches.map((b, i) => this.valid(b, `${at}/${s.anyOf ? 'anyOf' : 'oneOf'}/${i}`)));
    }
    switch (s.type) {
      case 'string':
        return this.validString(s);
      case 'integer':
        return this.query(this.integers(s.minimum, s.maximum));
      case 'number':
        return this.query(
          fc.oneof(
            this.integers(s.minimum, s.maximum),
            fc
              .double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true })
              .map((n) => (Object.is(n, -0) ? 0 : n)),
          ),
        );
      case 'boolean':
        return this.query(fc.boolean());
      case 'array':
        return this.validArray(s, at);
      case 'object':
        return this.validObject(s, at);
      default:
        throw new UnsupportedSchemaError(`${at || 'schema'}: type ${JSON.stringify(s.type)} is not supported`);
    }
  }

  private integers(minimum?: number, maximum?: number): fc.Arbitrary<number> {
    const min = minimum ?? -1_000_000;
    const max = maximum ?? Number.MAX_SAFE_INTEGER;
    // The bounds themselves, and big values: a bound the server keeps and the document does not show is found at the top.
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, Math.min(max, min + 1)));
  }

  private validString(s: Json): fc.Arbitrary<string> {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Math.max(min, this.size * 4);
    let value: fc.Arbitrary<string>;
    if (s.format === 'uuid') value = fc.uuid();
    else if (s.format === 'date')
      value = fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    else if (s.format === 'date-time')
      value = fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    else if (s.pattern !== undefined) {
      const pattern = new RegExp(s.pattern, 'u');
      // An unanchored pattern (`\\S`) is met by most texts: those bring the characters stringMatching does not (NUL, say).
      value = s.pattern.startsWith('^')
        ? fc.stringMatching(pattern)
        : fc.oneof(
            fc.stringMatching(pattern),
            text(Math.max(min, 1), Math.min(max, 40)).filter((v) => pattern.test(v)),
          );
    } else
      value = fc.oneof(
        { weight: 4, arbitrary: text(min, Math.min(max, this.size * 4)) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(text(min, 20), fc.constantFrom('a', '\u00e9', '\ud83d\ude80'))
            .map(([v, c]) => exactly(v, c, max)),
        },
      );
    const own = s.format === undefined ? undefined : this.options.formats?.[s.format];
    if (own) value = fc.oneof({ weight: 3, arbitrary: own }, { weight: 1, arbitrary: value });
    return value.filter((v) => codePoints(v) >= min && codePoints(v) <= max);
  }

  private validArray(s: Json, at: string): fc.Arbitrary<unknown[]> {
    if (!s.items) throw new UnsupportedSchemaError(`${at || 'schema'}: an array without items`);
    const items = this.valid(s.items, `${at}/items`);
    const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? this.size, this.size) };
    return s.uniqueItems
      ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
      : fc.array(items, constraints);
  }

  private validObject(s: Json, at: string): fc.Arbitrary<Record<string, unknown>> {
    const properties = (s.properties ?? {}) as Record<string, Json>;
    const names = Object.keys(properties);
    if (!names.length) {
      if (s.additionalProperties === false) return fc.constant({});
      // A map: each value of the schema `additionalProperties` names, under any keys (without NUL).
      if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
        return fc.dictionary(text(1, 12), this.valid(s.additionalProperties as Json, `${at}/*`), { maxKeys: 3 });
      }
      // A free-form object: any JSON values under any keys, without NUL: the server refuses it in any
      // string of a body, and OpenAPI 3.0 has no keyword to say so of keys (no propertyNames).
      return fc
        .dictionary(text(1, 12), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
        .map((o) => JSON.parse(JSON.stringify(o).replace(/\\u0000/g, '')) as Record<string, unknown>);
    }
    if (s.additionalProperties !== undefined && s.additionalProperties !== false)
      throw new UnsupportedSchemaError(`${at}: additionalProperties beside properties is not supported`);
    const record = Object.fromEntries(names.map((n) => [n, this.valid(properties[n], `${at}/${n}`)]));
    return fc.record(record, {
      requiredKeys: ((s.required ?? []) as string[]).filter((n) => names.includes(n)),
    }) as fc.Arbitrary<Record<string, unknown>>;
  }

  /** Every way to break one constraint of `s` (each an arbitrary of broken values). */
  private breaks(s: Json, at: string): fc.Arbitrary<Broken>[] {
    const where = at || 'the value';
    const out: fc.Arbitrary<Broken>[] = [];
    const broken = (what: string, value: fc.Arbitrary<unknown>) =>
      out.push(value.map((v) => ({ value: v, broken: `${where}: ${what}` })));
    if (!nullAllowed(s) && this.mode === 'json') broken('null where it is not nullable', fc.constant(null));
    if (s.enum) {
      const allowed = new Set((s.enum as unknown[]).map((v) => JSON.stringify(v)));
      broken(
        'a value not in the enum',
        this.query(
          fc
            .constantFrom('none-of-these', 7, 'MAIN', '')
            .filter((v) => !allowed.has(JSON.stringify(v)) && !allowed.has(JSON.stringify(Number(v)))),
        ),
      );
      return out;
    }
    if (s.anyOf || s.oneOf) {
      const types = new Set(((s.anyOf ?? s.oneOf) as Json[]).map((b) => this.resolve(b, at).type));
      if (this.mode === 'json' && !types.has('number') && !types.has('integer'))
        broken('a number, which no branch allows', fc.integer());
      if (this.mode === 'json' && !types.has('boolean')) broken('a boolean, which no branch allows', fc.boolean());
      const branches = ((s.anyOf ?? s.oneOf) as Json[]).map((b) => this.resolve(b, at));
      if (branches.every((b) => b.type === 'string' && (b.format === 'date' || b.format === 'date-time')))
        broken('neither a date nor a date-time', fc.constantFrom('yesterday', '2026-13-45', '1700000000'));
      return out;
    }
    const type = s.type as string;
    if (this.mode === 'json') {
      const wrong = {
        string: fc.integer(),
        integer: fc.constantFrom('12', 'twelve'),
        number: fc.constant('1.5'),
        boolean: fc.constantFrom('true', 0, 1),
        array: fc.constant({}),
        object: fc.constantFrom([], 'object', 3),
      }[type];
      if (wrong) broken(`not of type ${type}`, wrong);
    } else if (type !== 'string') {
      broken(
        `text that is not ${type === 'boolean' ? 'true or false' : `a number`}`,
        fc.constantFrom('abc', 'one', ' ', 'TRUE1', '1x'),
      );
    }
    switch (type) {
      case 'string':
        return [...out, ...this.stringBreaks(s, where)];
      case 'integer':
        if (s.minimum !== undefined)
          broken(
            `an integer below minimum ${s.minimum}`,
            this.query(fc.integer({ min: s.minimum - 1000, max: s.minimum - 1 })),
          );
        if (s.maximum !== undefined)
          broken(
            `an integer above maximum ${s.maximum}`,
            this.query(fc.integer({ min: s.maximum + 1, max: s.maximum + 1000 })),
          );
        // Within 32 bits: past 2^52 a double has no halves.
        broken(
          'a fraction where an integer is required',
          this.query(
            fc
              .integer({
                min: Math.max(s.minimum ?? -1000, -(2 ** 31)),
                max: Math.min((s.maximum ?? 2 ** 31) - 1, 2 ** 31 - 2),
              })
              .map((n) => n + 0.5),
          ),
        );
        return out;
      case 'number':
        if (s.minimum !== undefined)
          broken(
            `a number below minimum ${s.minimum}`,
            this.query(fc.double({ min: s.minimum - 1000, max: s.minimum - 0.001, noNaN: true })),
          );
        if (s.maximum !== undefined)
          broken(
            `a number above maximum ${s.maximum}`,
            this.query(fc.double({ min: s.maximum + 0.001, max: s.maximum + 1000, noNaN: true })),
          );
        return out;
      case 'boolean':
        return out;
      case 'array':
        return [...out, ...this.arrayBreaks(s, at, where)];
      case 'object':
        return [...out, ...this.objectBreaks(s, at, where)];
      default:
        throw new UnsupportedSchemaError(`${where}: type ${JSON.stringify(type)} is not supported`);
    }
  }

  private stringBreaks(s: Json, where: string): fc.Arbitrary<Broken>[] {
    const out: fc.Arbitrary<Broken>[] = [];
    const broken = (what: string, value: fc.Arbitrary<string>) =>
      out.push(value.map((v) => ({ value: v, broken: `${where}: ${what}` })));
    if (s.maxLength !== undefined)
      broken(
        `longer than maxLength ${s.maxLength}`,
        fc
          .tuple(
            this.validString({ ...s, maxLength: undefined, minLength: undefined }),
            fc.constantFrom('x', 'é', '\ud83d\ude80'),
          )
          .map(([v, c]) => exactly(v, c, s.maxLength + 1))
          .filter((v) => s.pattern === undefined || new RegExp(s.pattern, 'u').test(v)),
      );
    if (s.minLength !== undefined && s.minLength > 0)
      broken(`shorter than minLength ${s.minLength}`, text(0, s.minLength - 1));
    if (s.pattern !== undefined) {
      const pattern = new RegExp(s.pattern, 'u');
      const misses = fc.oneof(
        text(s.minLength ?? 0, Math.min(s.maxLength ?? 40, 40)),
        fc.constantFrom(' ', '\n\t', 'UPPER', 'a.b', 'x'.repeat(200), '\u0000', 'a\u0000b'),
      );
      broken(
        `not matching ${s.pattern}`,
        misses.filter(
          (v) => !pattern.test(v) && codePoints(v) >= (s.minLength ?? 0) && codePoints(v) <= (s.maxLength ?? Infinity),
        ),
      );
    }
    if (s.format === 'uuid')
      broken(
        'not a uuid',
        fc.oneof(
          fc.constantFrom('not-a-uuid', '1234', '{00000000-0000-4000-8000-000000000000}'),
          fc.uuid().map((u) => u.slice(1)),
          fc.uuid().map((u) => `${u}0`),
          fc.uuid().map((u) => u.replace(/-/g, '').slice(0, 31) + 'g'),
        ),
      );
    if (s.format === 'date') broken('not a date', fc.constantFrom('tomorrow', '2026-02-30', '2026-1-1', '20260101'));
    if (s.format === 'date-time')
      broken(
        'not a date-time',
        fc.constantFrom('yesterday', '2026-13-01T00:00:00Z', '2026-01-01T25:00:00Z', '1700000000'),
      );
    return out;
  }

  private arrayBreaks(s: Json, at: string, where: string): fc.Arbitrary<Broken>[] {
    const out: fc.Arbitrary<Broken>[] = [];
    const items = this.valid(s.items, `${at}/items`);
    if (s.maxItems !== undefined) {
      out.push(
        fc
          .array(items, { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 })
          .map((v) => ({ value: v, broken: `${where}: more than maxItems ${s.maxItems}` })),
      );
    }
    if (s.minItems !== undefined && s.minItems > 0)
      out.push(
        fc
          .array(items, { maxLength: s.minItems - 1 })
          .map((v) => ({ value: v, broken: `${where}: fewer than minItems ${s.minItems}` })),
      );
    if (s.uniqueItems) {
      const room = Math.min(s.maxItems ?? this.size, this.size);
      if (room >= 2)
        out.push(
          fc
            .tuple(items, fc.array(items, { maxLength: room - 2 }))
            .map(([first, rest]) => ({
              value: [first, ...rest, first],
              broken: `${where}: the same item twice (uniqueItems)`,
            }))
            .filter((b) => !s.uniqueItems || b.value.length <= room),
        );
    }
    const item = this.invalid(s.items, `${at}[]`);
    if (item) {
      const rest = fc.array(items, { maxLength: Math.min((s.maxItems ?? this.size) - 1, 3) });
      out.push(
        fc
          .tuple(rest, item)
          .map(([others, bad]) => ({ value: [...others, bad.value], broken: bad.broken }))
          .filter((b) => !s.uniqueItems || new Set(b.value.map((v) => JSON.stringify(v))).size === b.value.length),
      );
    }
    return out;
  }

  private objectBreaks(s: Json, at: string, where: string): fc.Arbitrary<Broken>[] {
    const properties = (s.properties ?? {}) as Record<string, Json>;
    const names = Object.keys(properties);
    const out: fc.Arbitrary<Broken>[] = [];
    if (!names.length) return out;
    const whole = this.validObject(s, at);
    for (const name of (s.required ?? []) as string[]) {
      out.push(whole.map((o) => ({ value: omit(o, name), broken: `${where}: required ${name} missing` })));
    }
    if (s.additionalProperties === false) {
      const unknown = fc
        .constantFrom('unexpected', 'extra_field', 'Message', 'conversation_id')
        .filter((n) => !names.includes(n));
      out.push(
        fc
          .tuple(whole, unknown, fc.jsonValue({ maxDepth: 1 }))
          .map(([o, n, v]) => ({ value: { ...o, [n]: v }, broken: `${where}: unknown property ${n}` })),
      );
    }
    const required = new Set((s.required ?? []) as string[]);
    for (const name of names) {
      let bad = this.invalid(properties[name], at ? `${at}.${name}` : name);
      if (bad && !required.has(name) && this.options.optionalNull === 'absent')
        bad = bad.filter((b) => b.value !== null);
      if (bad) out.push(fc.tuple(whole, bad).map(([o, b]) => ({ value: { ...o, [name]: b.value }, broken: b.broken })));
    }
    return out;
  }
}

/** OpenAPI 3.0.3: `nullable` allows null beside a `type`, but an `enum` must list null itself. */
function nullAllowed(s: Json): boolean {
  return s.enum ? (s.enum as unknown[]).includes(null) : s.nullable === true;
}

/** `value` cut or filled with `filler` to exactly `length` code points. */
function exactly(value: string, filler: string, length: number): string {
  return [...longer(value, filler, length)].slice(0, length).join('');
}

/** `value` made `length` code points long with `filler`, keeping what it starts with. */
function longer(value: string, filler: string, length: number): string {
  const points = [...value];
  while (points.length < length) points.push(filler);
  return points.slice(0, Math.max(length, points.length)).join('');
}

function omit(o: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = o;
  return rest;
}
