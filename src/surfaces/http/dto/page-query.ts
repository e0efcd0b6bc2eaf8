import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { NOT_BLANK_PATTERN } from './text-patterns.js';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** `limit` of a paged list: an integer of 1-100, 20 when absent. */
export function PageLimit() {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(100),
  );
}

/** `cursor` of a paged list: the `nextCursor` of the page before. */
export function PageCursor() {
  return applyDecorators(
    ApiPropertyOptional({ description: 'The nextCursor of the previous page.', maxLength: 200 }),
    IsOptional(),
    IsString(),
    MaxLength(200),
  );
}

/** `q` of a searchable list: 1-200 characters, no NUL. */
export function SearchQuery(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ description, minLength: 1, maxLength: 200, pattern: NOT_BLANK_PATTERN }),
    IsOptional(),
    IsString(),
    IsNotEmpty(),
    MaxLength(200),
    Matches(/^[^\u0000]*$/, { message: 'q must not contain NUL characters' }),
  );
}
