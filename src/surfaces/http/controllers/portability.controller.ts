import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query, Res, type StreamableFile } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { PortabilityService } from '../../../portability/portability.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { download, safeFilename } from '../download.js';
import {
  ConversationDetailDto,
  ConversationSummaryDto,
  toConversationDetail,
  toConversationSummary,
} from '../dto/conversation.dto.js';
import { ChatErrorDto } from '../../errors/error.dto.js';
import {
  ConversationExportDto,
  ExportQueryDto,
  ForkRequestDto,
  ImportErrorDto,
  ImportQueryDto,
} from '../dto/portability.dto.js';
import { ApiCreated } from '../created-location.js';

const DOWNLOAD_HEADERS = {
  'Content-Disposition': {
    description: 'attachment; filename="<title>-<date>.json" (or .md)',
    schema: { type: 'string' },
  },
} as const;

/** Conversations as files: export (JSON or Markdown), import, and fork. */
@ApiTags('conversations')
@ApiBearerAuth()
@Controller('api/conversations')
export class PortabilityController {
  constructor(
    private readonly portability: PortabilityService,
    private readonly conversations: ConversationsService,
  ) {}

  @Post('import')
  @ApiOperation({
    operationId: 'importConversation',
    summary: 'Create a conversation from a conversation export (JSON, version 2 or 1)',
    description:
      'The body is a file written by GET /api/conversations/{id}/export. It is validated whole: a foreign or malformed ' +
      'file answers 400 with its first problems and their JSON paths (a version 2 tree with a cycle, a parent not in the ' +
      'file, an id twice or an active leaf of another thread included). Version 2 rebuilds every branch and active path; ' +
      'version 1 the active paths, each earlier answer a sibling. New ids; replies still streaming become failed; ' +
      "the file's agent is not attached (?agentId= binds one of yours). Large files need a larger BODY_LIMIT_BYTES.",
  })
  @ApiBody({ type: ConversationExportDto })
  @ApiCreated(ConversationSummaryDto, (c) => `/api/conversations/${c.id}`)
  @ApiErrors([400], ImportErrorDto)
  @ApiErrors([401, 404, 409, 413])
  async import(
    @CurrentActor() actor: Actor,
    @Query() query: ImportQueryDto,
    @Body() body: unknown,
  ): Promise<ConversationSummaryDto> {
    return toConversationSummary(await this.portability.importConversation(actor, body, query.agentId));
  }

  @Get(':id/export')
  @ApiOperation({
    operationId: 'exportConversation',
    summary: 'Download a conversation: the versioned JSON export (importable) or a Markdown transcript',
    description:
      "JSON version 2 (the default) holds every message of every branch with its parent, and each thread's active leaf; ?version=1 writes the linear format of the active paths. Markdown shows the active paths.",
  })
  @ApiExtraModels(ConversationExportDto)
  @ApiResponse({
    status: 200,
    description: 'The file, as an attachment.',
    headers: DOWNLOAD_HEADERS,
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ConversationExportDto) } },
      'text/markdown': { schema: { type: 'string', description: 'A transcript with a heading per thread.' } },
    },
  })
  @ApiErrors([400, 401, 404])
  async export(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: ExportQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const now = new Date();
    if (query.format === 'markdown') {
      const { title, text } = await this.portability.exportMarkdown(actor, id);
      return download(res, text, 'text/markdown; charset=utf-8', safeFilename(title, 'conversation', now, 'md'));
    }
    const doc = await this.portability.exportConversation(actor, id, query.version);
    const filename = safeFilename(doc.conversation.title, 'conversation', now, 'json');
    return download(res, `${JSON.stringify(doc, null, 2)}\n`, 'application/json; charset=utf-8', filename);
  }

  @Post(':id/fork')
  @ApiOperation({
    operationId: 'forkConversation',
    summary: 'Start a new conversation from the history up to a message',
    description:
      'Copies every message of every thread up to the seq of fromMessageId (that message included), with the threads, ' +
      'summaries, agent, state and tags, into a new conversation titled "<title> (fork)". 409 while that message is being generated.',
  })
  @ApiCreated(ConversationDetailDto, (c) => `/api/conversations/${c.id}`)
  @ApiErrors([400, 401, 404, 413])
  @ApiErrors([409], ChatErrorDto)
  async fork(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: ForkRequestDto,
  ): Promise<ConversationDetailDto> {
    const forkId = await this.portability.fork(actor, id, body.fromMessageId);
    return toConversationDetail(await this.conversations.getWithMessages(actor, forkId));
  }
}
