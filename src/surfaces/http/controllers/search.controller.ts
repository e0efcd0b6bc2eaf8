import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { RecallService } from '../../../recall/recall.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { agentFilter } from '../dto/conversation.dto.js';
import { MessageSearchPageDto, SearchMessagesQueryDto, toMessageHit } from '../dto/search.dto.js';

@ApiTags('search')
@ApiBearerAuth()
@Controller('api/search')
export class SearchController {
  constructor(private readonly recall: RecallService) {}

  @Get()
  @ApiOperation({
    operationId: 'searchMessages',
    summary: "The caller's messages best matching a question or some words, across conversations, ranked",
    description:
      'Several hits per conversation, each with its place (conversationId, seq, thread) and a snippet. Archived conversations ' +
      'are included; replies still being generated are not. Page with cursor.',
  })
  @ApiOkResponse({ type: MessageSearchPageDto })
  @ApiErrors([400, 401])
  async search(@CurrentActor() actor: Actor, @Query() query: SearchMessagesQueryDto): Promise<MessageSearchPageDto> {
    const page = await this.recall.searchMessages(actor, query.q, {
      limit: query.limit,
      cursor: query.cursor,
      before: query.before === undefined ? undefined : new Date(query.before),
      after: query.after === undefined ? undefined : new Date(query.after),
      role: query.role,
      conversationId: query.conversationId?.toLowerCase(),
      agentId: agentFilter(query.agentId),
    });
    return { items: page.items.map(toMessageHit), nextCursor: page.nextCursor };
  }
}
