import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { AgentsService } from '../../../agents/agents.service.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import {
  AGENT_PAGE_MAX,
  AgentDeletedDto,
  AgentDto,
  AgentListDto,
  CreateAgentDto,
  DeleteAgentQueryDto,
  ListAgentsQueryDto,
  toAgentDto,
  UpdateAgentDto,
} from '../dto/agent.dto.js';
import { AgentInUseErrorDto, ErrorDto } from '../../errors/error.dto.js';
import { ApiCreated } from '../created-location.js';

@ApiTags('agents')
@ApiBearerAuth()
@Controller('api/agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsService,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createAgent',
    summary: 'Create an agent',
    description:
      "A conversation started with the agent's id gets its system prompt, model settings and tools. Answers 201 with a Location header.",
  })
  @ApiCreated(AgentDto, (agent) => `/api/agents/${agent.id}`)
  @ApiErrors([400, 401])
  @ApiResponse({
    status: 409,
    description: 'The caller has as many agents as MAX_AGENTS_PER_ACTOR allows (code `limit_reached`)',
    type: ErrorDto,
  })
  async create(@CurrentActor() actor: Actor, @Body() body: CreateAgentDto): Promise<AgentDto> {
    return toAgentDto(await this.agents.create(actor, body));
  }

  @Get()
  @ApiOperation({
    operationId: 'listAgents',
    summary: "The caller's agents, by name, a page at a time",
    description: `Pages of \`limit\` agents (${AGENT_PAGE_MAX} unless set: all of them under the default MAX_AGENTS_PER_ACTOR); follow nextCursor for the next.`,
  })
  @ApiOkResponse({ type: AgentListDto })
  @ApiErrors([400, 401])
  async list(@CurrentActor() actor: Actor, @Query() query: ListAgentsQueryDto): Promise<AgentListDto> {
    const page = await this.agents.page(actor, { limit: query.limit ?? AGENT_PAGE_MAX, cursor: query.cursor });
    return { items: page.items.map(toAgentDto), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getAgent',
    summary: 'One agent',
    description: "Another caller's agent answers 404, like a missing one.",
  })
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors([400, 401, 404])
  async get(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<AgentDto> {
    return toAgentDto(await this.agents.get(actor, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateAgent',
    summary: 'Change some fields of an agent (null clears one)',
    description: 'Only the fields sent change; null clears an optional field (the name cannot be cleared).',
  })
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors([400, 401, 404])
  async update(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateAgentDto,
  ): Promise<AgentDto> {
    if (body.name === null) delete body.name; // a name cannot be cleared
    return toAgentDto(await this.agents.update(actor, id, body));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deleteAgent',
    summary: 'Delete an agent',
    description:
      'An agent with conversations is only deleted with ?conversations=detach (they stay, without an agent) ' +
      'or ?conversations=delete (they are deleted too); otherwise 409 says how many there are.',
  })
  @ApiOkResponse({ type: AgentDeletedDto })
  @ApiErrors([400, 401, 404])
  @ApiErrors([409], AgentInUseErrorDto)
  async delete(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: DeleteAgentQueryDto,
  ): Promise<AgentDeletedDto> {
    return { conversations: await this.conversations.deleteAgent(actor, id, query.conversations ?? 'refuse') };
  }
}
