import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

/** A model's name as a request gives it (optional; `nullable` lets null through): the service checks it against the offered models. */
export function ModelName(description: string, nullable = false): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable, minLength: 1, maxLength: 200, description, example: 'gpt-4o-mini' }),
    IsString(),
    MinLength(1),
    MaxLength(200),
  );
}
