import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
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
  return applyDecorators(ApiPropertyOptional({ description: 'The nextCursor of the previous page.' }), IsOptional(), IsString(), MaxLength(200));
}

/** `q` of a searchable list: 1-200 characters, no NUL. */
export function SearchQuery(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ description, maxLength: 200 }),
    IsOptional(),
    IsString(),
    IsNotEmpty(),
    MaxLength(200),
    Matches(/^[^\u0000]*$/, { message: 'q must not contain NUL characters' }),
  );
}
