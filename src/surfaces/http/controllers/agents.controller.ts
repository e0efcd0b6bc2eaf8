import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { AgentsService } from '../../../agents/agents.service.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { ApiErrors } from '../api-errors.decorator.js';
import { AgentDeletedDto, AgentDto, AgentListDto, CreateAgentDto, DeleteAgentQueryDto, toAgentDto, UpdateAgentDto } from '../dto/agent.dto.js';
import { AgentInUseErrorDto } from '../dto/error.dto.js';
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
  @ApiOperation({ operationId: 'createAgent', summary: 'Create an agent' })
  @ApiCreated(AgentDto, (agent) => `/api/agents/${agent.id}`)
  @ApiErrors([400, 401])
  async create(@CurrentActor() actor: Actor, @Body() body: CreateAgentDto): Promise<AgentDto> {
    return toAgentDto(await this.agents.create(actor, body));
  }

  @Get()
  @ApiOperation({ operationId: 'listAgents', summary: "The caller's agents, by name" })
  @ApiOkResponse({ type: AgentListDto })
  @ApiErrors([400, 401])
  async list(@CurrentActor() actor: Actor): Promise<AgentListDto> {
    return { items: (await this.agents.list(actor)).map(toAgentDto) };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getAgent', summary: 'One agent' })
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors([400, 401, 404])
  async get(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<AgentDto> {
    return toAgentDto(await this.agents.get(actor, id));
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateAgent', summary: 'Change some fields of an agent (null clears one)' })
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors([400, 401, 404])
  async update(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string, @Body() body: UpdateAgentDto): Promise<AgentDto> {
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
