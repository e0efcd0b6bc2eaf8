import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import { ApiCreatedResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

/**
 * A 201 answer with the `Location` of what it created (RFC 9110 §15.3.2), documented as a
 * required header. `locationOf` reads the path from the answer's own body.
 */
export function ApiCreated<T>(type: Type<T>, locationOf: (body: T) => string, description = 'The created resource') {
  return applyDecorators(
    ApiCreatedResponse({
      type,
      description,
      headers: {
        Location: { description: 'The path of the created resource', required: true, schema: { type: 'string' } },
      },
    }),
    UseInterceptors(new CreatedLocation(locationOf as (body: unknown) => string)),
  );
}

class CreatedLocation implements NestInterceptor {
  constructor(private readonly locationOf: (body: unknown) => string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body) => {
        res.location(this.locationOf(body));
        return body;
      }),
    );
  }
}
