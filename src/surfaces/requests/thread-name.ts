import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { THREAD_NAME } from '../../conversations/thread.entity.js';

/**
 * An optional thread name, validated and documented the same everywhere. Omitted, it means the
 * main thread (a turn) or every thread (a filter).
 */
export function OptionalThreadName(description?: string, omitted: 'main' | 'all' = 'main'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      pattern: THREAD_NAME.source,
      ...(omitted === 'main' ? { default: 'main' } : {}),
      description,
    }),
    IsOptional(),
    Matches(THREAD_NAME, { message: 'thread must be 1-64 characters of a-z, 0-9, "_" and "-"' }),
  );
}
