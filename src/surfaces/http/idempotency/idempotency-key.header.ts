import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request } from 'express';

/** The request's Idempotency-Key, validated: 1-255 visible ASCII characters. */
export const IdempotencyKeyHeader = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined => {
    const value = context.switchToHttp().getRequest<Request>().headers['idempotency-key'];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(value)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    return value;
  },
);

export const ApiIdempotencyKey = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes retries safe: a retry with the same key and body within 24 hours gets the stored result without calling the model again; ' +
      'the same key with a different body gets 422; a retry while the first is still running waits for it (a stream follows it).',
  });
