import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

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
