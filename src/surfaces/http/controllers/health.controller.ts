import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../../actor-auth/public.decorator.js';
import { DatabaseService, type DatabaseHealth } from '../../../database/database.service.js';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'error'], description: '`degraded`: reads work, writes do not' })
  status: string;
  @ApiProperty({
    enum: ['ok', 'unreachable', 'not_writable'],
    description:
      '`not_writable`: it answers reads, but the last write failed (full disk, I/O error) and no write has succeeded since',
  })
  database: string;
  @ApiProperty({ description: 'Whether the database takes writes' }) writable: boolean;
}

/** A database that drops packets must not hang a health check: it answers within this bound. */
const CHECK_BOUND_MS = 2_000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly db: DatabaseService) {}

  @Get()
  @Public()
  @ApiOperation({
    operationId: 'health',
    summary: 'Liveness and database check (no authentication)',
    description:
      '503 only when the database does not answer; a database that answers reads but not writes is reported here and fails `/health/ready`.',
    security: [],
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'The database does not answer' })
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
    const health = await this.bounded();
    if (!health.reachable) res.status(503);
    return dto(health);
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    operationId: 'ready',
    summary: 'Readiness: the database answers and takes writes (no authentication)',
    description:
      'For a load balancer or orchestrator: 503 while the database is unreachable or refuses writes (full disk); 200 again, without a restart, once a write succeeds.',
    security: [],
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({
    type: HealthDto,
    description: 'The database does not answer or does not take writes',
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
    const health = await this.bounded();
    if (!health.writable) res.status(503);
    return dto(health);
  }

  private bounded(): Promise<DatabaseHealth> {
    const timeout = new Promise<DatabaseHealth>((resolve) =>
      setTimeout(() => resolve({ reachable: false, writable: false }), CHECK_BOUND_MS).unref(),
    );
    return Promise.race([this.db.health(), timeout]);
  }
}

function dto(health: DatabaseHealth): HealthDto {
  if (!health.reachable) return { status: 'error', database: 'unreachable', writable: false };
  return health.writable
    ? { status: 'ok', database: 'ok', writable: true }
    : { status: 'degraded', database: 'not_writable', writable: false };
}
