import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../../actor-auth/public.decorator.js';
import { DatabaseService } from '../../../database/database.service.js';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'error'] }) status: string;
  @ApiProperty({ enum: ['ok', 'unreachable'] }) database: string;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly db: DatabaseService) {}

  @Get()
  @Public()
  @ApiOperation({ operationId: 'health', summary: 'Liveness and database check (no authentication)', security: [] })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'The database does not answer' })
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
    try {
      // A database that drops packets must not hang the health check: answer within 2 s.
      await Promise.race([this.db.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref())]);
      return { status: 'ok', database: 'ok' };
    } catch {
      res.status(503);
      return { status: 'error', database: 'unreachable' };
    }
  }
}
