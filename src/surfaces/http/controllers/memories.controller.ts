import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { MemoryService } from '../../../memory/memory.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { ApiCreated } from '../created-location.js';
import { ErrorDto } from '../../errors/error.dto.js';
import { agentFilter } from '../dto/conversation.dto.js';
import {
  CreateMemoryDto,
  ImportMemoriesDto,
  ListMemoriesQueryDto,
  MemoriesImportedDto,
  MemoryDto,
  MemoryListDto,
  toMemoryDto,
  UpdateMemoryDto,
} from '../dto/memory.dto.js';

const LIMIT = 'The caller keeps as many memories as MAX_MEMORIES_PER_ACTOR allows (code `limit_reached`)';

@ApiTags('memories')
@ApiBearerAuth()
@Controller('api/memories')
export class MemoriesController {
  constructor(private readonly memories: MemoryService) {}

  @Get()
  @ApiOperation({
    operationId: 'listMemories',
    summary: "The caller's long-term memories, most recently updated first",
    description:
      'With q: the memories holding every word, best match first (one page, no cursor). agentId=none: only the global ones.',
  })
  @ApiOkResponse({ type: MemoryListDto })
  @ApiErrors([400, 401])
  async list(@CurrentActor() actor: Actor, @Query() query: ListMemoriesQueryDto): Promise<MemoryListDto> {
    // As for conversations: a search is one page, so a cursor beside q is a mistake, not ignored.
    if (query.q !== undefined && query.cursor !== undefined)
      throw new BadRequestException('cursor cannot be combined with q: search answers one ranked page');
    const page = await this.memories.list(actor, {
      q: query.q,
      agentId: agentFilter(query.agentId),
      limit: query.limit ?? 20,
      cursor: query.cursor,
    });
    return { items: page.items.map(toMemoryDto), nextCursor: page.nextCursor };
  }

  @Post()
  @ApiOperation({
    operationId: 'createMemory',
    summary: 'Remember a fact (read by later turns)',
    description:
      'Global, or scoped to one agent (agentId); a pinned memory enters every turn, the others when they match the question. Answers 201 with a Location header.',
  })
  @ApiCreated(MemoryDto, (memory) => `/api/memories/${memory.id}`)
  @ApiErrors([400, 401, 404])
  @ApiResponse({ status: 409, description: LIMIT, type: ErrorDto })
  async create(@CurrentActor() actor: Actor, @Body() body: CreateMemoryDto): Promise<MemoryDto> {
    return toMemoryDto(
      await this.memories.create(actor, {
        text: body.text,
        pinned: body.pinned,
        agentId: body.agentId?.toLowerCase() ?? null,
      }),
    );
  }

  @Post('import')
  @ApiOperation({
    operationId: 'importMemories',
    summary: 'Take back the memories of an account export',
    description:
      'Each gets a new id and is global (an agent scope is not carried over); text, pin and dates are kept. All or nothing; at most 1,000 a request.',
  })
  @ApiCreatedResponse({ type: MemoriesImportedDto })
  @ApiErrors([400, 401])
  @ApiResponse({ status: 409, description: LIMIT, type: ErrorDto })
  async import(@CurrentActor() actor: Actor, @Body() body: ImportMemoriesDto): Promise<MemoriesImportedDto> {
    return { imported: await this.memories.importFor(actor, body.memories) };
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getMemory',
    summary: 'One memory',
    description: "Another caller's memory answers 404, like a missing one.",
  })
  @ApiOkResponse({ type: MemoryDto })
  @ApiErrors([400, 401, 404])
  async get(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<MemoryDto> {
    return toMemoryDto(await this.memories.get(actor, id.toLowerCase()));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateMemory',
    summary: 'Edit, pin or unpin, or rescope a memory',
    description: 'Only the fields sent change; agentId null makes the memory global.',
  })
  @ApiOkResponse({ type: MemoryDto })
  @ApiErrors([400, 401, 404])
  async update(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateMemoryDto,
  ): Promise<MemoryDto> {
    const agentId = body.agentId === undefined || body.agentId === null ? body.agentId : body.agentId.toLowerCase();
    return toMemoryDto(
      await this.memories.update(actor, id.toLowerCase(), { text: body.text, pinned: body.pinned, agentId }),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteMemory',
    summary: 'Forget a memory (no later turn reads it)',
    description: 'Deleted for good; turns already answered keep what they said.',
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors([400, 401, 404])
  async delete(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.memories.delete(actor, id.toLowerCase());
  }
}
