import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { UsageService } from '../../../usage/usage.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { agentFilter } from '../dto/conversation.dto.js';
import { UsageQueryDto, UsageReportDto } from '../dto/usage.dto.js';

const DAY_MS = 24 * 60 * 60 * 1000;

@ApiTags('usage')
@ApiBearerAuth()
@Controller('api/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({
    operationId: 'getUsage',
    summary: "The caller's token usage, in total, per model and per UTC day",
    description:
      "Token counts of the caller's replies between from and to (the last 30 days unless set), optionally for one agent (agentId=none: conversations without an agent).",
  })
  @ApiOkResponse({ type: UsageReportDto })
  @ApiErrors([400, 401, 404])
  async report(@CurrentActor() actor: Actor, @Query() query: UsageQueryDto): Promise<UsageReportDto> {
    const to = query.to ? utc(query.to) : new Date();
    const from = query.from ? utc(query.from) : new Date(to.getTime() - 30 * DAY_MS);
    const report = await this.usage.report(actor, { from, to, agentId: agentFilter(query.agentId) });
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      ...report,
      byModel: [...report.byModel],
      byDay: [...report.byDay],
    };
  }
}

/** ISO dates and date-times without an offset are UTC here, whatever the server's time zone. */
function utc(value: string): Date {
  const hasTime = value.includes('T');
  const hasOffset = /([zZ]|[+-]\d\d(:?\d\d)?)$/.test(value);
  return new Date(hasTime && !hasOffset ? `${value}Z` : value);
}
