import { applyDecorators } from '@nestjs/common';
import { Expose, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotContains,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { THREAD_NAME } from '../conversations/thread.entity.js';

/**
 * The rules of one field of the export document, as class-validator decorators whose messages
 * are the ones an import reports (`must be a string`, `is missing (an integer)`, ...). The
 * import validates with `stopAtFirstError`, so each rule lists its checks in the order they are
 * reported: one problem per field. Every rule also marks the field for class-transformer
 * (`@Expose`): the import reads only described fields, so unknown keys are never walked.
 */

export const NOT_AN_OBJECT = 'must be a JSON object';

/** `required` (the default); `absent` may be left out but is checked when given (null too); `nullable` may be absent or null. */
type Presence = 'required' | 'absent' | 'nullable';

const missingOr =
  (what: string, wrong: string) =>
  (args: ValidationArguments): string =>
    args.value === undefined ? `is missing (${what})` : wrong;

/**
 * What a scalar field is typed as for class-transformer. An object found there (a file can put
 * anything anywhere) becomes an empty instance instead of being copied key by key: untyped,
 * class-transformer dedupes an object's keys in quadratic time. Scalars pass unchanged, and the
 * rules refuse an instance or an array as they would the original value.
 */
class Scalar {}

const scalar = (): PropertyDecorator[] => [Expose(), Type(() => Scalar)];

function presence(p: Presence = 'required'): PropertyDecorator[] {
  if (p === 'nullable') return [IsOptional()];
  if (p === 'absent') return [ValidateIf((_o, value) => value !== undefined)];
  return [];
}

/** A string of at most `max` characters, without NUL (PostgreSQL text cannot hold it). */
export function Text(rules: { max: number; nonEmpty?: boolean; presence?: Presence }): PropertyDecorator {
  return applyDecorators(
    ...scalar(),
    ...presence(rules.presence),
    IsString({ message: missingOr('a string', 'must be a string') }),
    MaxLength(rules.max, {
      message: (args: ValidationArguments) =>
        `is ${(args.value as string).length} characters long; the limit is ${rules.max}`,
    }),
    ...(rules.nonEmpty ? [MinLength(1, { message: 'must not be empty' })] : []),
    NotContains('\u0000', { message: 'must not contain NUL characters' }),
  );
}

export function Integer(rules: { min: number; max: number; presence?: Presence }): PropertyDecorator {
  const range = `must be an integer from ${rules.min} to ${rules.max}`;
  return applyDecorators(
    ...scalar(),
    ...presence(rules.presence),
    IsInt({ message: missingOr('an integer', range) }),
    Min(rules.min, { message: range }),
    Max(rules.max, { message: range }),
  );
}

export function Flag(rules: { presence?: Presence } = {}): PropertyDecorator {
  return applyDecorators(...scalar(), ...presence(rules.presence), IsBoolean({ message: 'must be true or false' }));
}

export function OneOf(allowed: readonly string[]): PropertyDecorator {
  return applyDecorators(...scalar(), IsIn([...allowed], { message: `must be one of: ${allowed.join(', ')}` }));
}

export function ThreadName(): PropertyDecorator {
  return applyDecorators(
    ...scalar(),
    Matches(THREAD_NAME, { message: 'must be a thread name: 1-64 characters of a-z, 0-9, "_" and "-"' }),
  );
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A date-time with a time zone, as the export writes them (`2026-11-30T05:55:56.814Z`), that is a real date. */
function isDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(new Date(value).getTime());
}

export function DateTime(rules: { presence?: Presence } = {}): PropertyDecorator {
  return applyDecorators(
    ...scalar(),
    ...presence(rules.presence),
    ValidateBy({
      name: 'isExportDateTime',
      validator: {
        validate: isDateTime,
        defaultMessage: missingOr(
          'an ISO 8601 date-time',
          'must be an ISO 8601 date-time, e.g. 2026-11-30T05:55:56.814Z',
        ),
      },
    }),
  );
}

/** An array of at most `maxItems`; of objects of the class `of`, each validated as one. */
export function List(rules: {
  of?: () => new () => object;
  maxItems?: number;
  presence?: Presence;
}): PropertyDecorator {
  const max = rules.maxItems;
  return applyDecorators(
    Expose(),
    ...presence(rules.presence),
    IsArray({ message: missingOr('an array', 'must be an array') }),
    ...(max === undefined
      ? []
      : [
          ArrayMaxSize(max, {
            message: (args: ValidationArguments) =>
              `has ${(args.value as unknown[]).length} items; the limit is ${max}`,
          }),
        ]),
    ...(rules.of
      ? [ValidateNested({ each: true, message: NOT_AN_OBJECT }), Type(rules.of), Transform(arraysAreNoItems)]
      : [Type(() => Scalar)]),
  );
}

/**
 * class-validator validates the items of an array found where an item object belongs (an empty
 * one passes): as null it is what it is to the reader, no object.
 */
function arraysAreNoItems({ value }: { value: unknown }): unknown {
  return Array.isArray(value) ? value.map((item: unknown) => (Array.isArray(item) ? null : item)) : value;
}

/** One object of the class `of`. */
export function Nested(rules: { of: () => new () => object; presence?: Presence }): PropertyDecorator {
  return applyDecorators(
    Expose(),
    ...presence(rules.presence),
    IsObject({ message: missingOr('a JSON object', NOT_AN_OBJECT) }),
    ValidateNested(),
    Type(rules.of),
  );
}
