import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';

/** Per-request model settings; they override the agent's for this turn. */
export class ModelOptionsDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxTokens?: number;
}

/** The optional `options` of a turn request (ModelOptionsDto, validated nested). */
export function ModelOptionsField() {
  return applyDecorators(
    ApiPropertyOptional({ type: ModelOptionsDto }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => ModelOptionsDto),
  );
}
