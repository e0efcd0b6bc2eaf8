import { BadRequestException, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DTO_SHAPE_LIMITS, shapeProblem } from './json-shape.js';

/** A 400 lists this many validation problems and counts the rest. */
const MAX_LISTED_VALIDATION_PROBLEMS = 10;

/**
 * The global ValidationPipe (whitelist, forbidNonWhitelisted, transform) with its work and its
 * answer bounded: a body or query validated against a DTO is first held to DTO_SHAPE_LIMITS
 * (class-transformer's cost grows with the square of an object's keys), and a 400 lists at
 * most MAX_LISTED_VALIDATION_PROBLEMS messages, so 1,000 unknown keys do not make a 40 KB answer.
 */
export class BoundedValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => new BadRequestException(listProblems(errors)),
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom parameter (the actor, a header) is never validated and comes back as it is:
    // answered without the validation path's promises, on every route of every request
    // (Nest awaits whatever a pipe returns).
    if (metadata.type === 'custom') return value as Promise<unknown>;
    if ((metadata.type === 'body' || metadata.type === 'query') && this.toValidate(metadata)) {
      const problem = shapeProblem(value, DTO_SHAPE_LIMITS);
      if (problem) return Promise.reject(new BadRequestException(`${problem} in this request`));
    }
    return super.transform(value, metadata);
  }
}

/**
 * The first messages of class-validator's errors (nested ones get their parent's path; the
 * messages already name the property), the last one telling how many were left out.
 */
export function listProblems(errors: ValidationError[]): string[] {
  const listed: string[] = [];
  let more = 0;
  const pending: Array<{ error: ValidationError; parent: string }> = errors
    .map((error) => ({ error, parent: '' }))
    .reverse();
  while (pending.length) {
    const { error, parent } = pending.pop()!;
    for (const message of Object.values(error.constraints ?? {})) {
      if (listed.length < MAX_LISTED_VALIDATION_PROBLEMS) listed.push(parent ? `${parent}.${message}` : message);
      else more++;
    }
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const child of [...(error.children ?? [])].reverse()) pending.push({ error: child, parent: path });
  }
  if (more) listed[listed.length - 1] += ` (and ${more} more problems)`;
  return listed;
}
