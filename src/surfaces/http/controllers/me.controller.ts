import { Controller, Delete, Get, HttpCode, HttpStatus, Query, Res, type StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { PortabilityService } from '../../../portability/portability.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { download, safeFilename } from '../download.js';
import { AccountExportDto, ErasedDataDto, ExportVersionQueryDto } from '../dto/portability.dto.js';

/** The caller's own data, as a whole: take it away, or erase it. */
@ApiTags('account')
@ApiBearerAuth()
@Controller('api/me')
export class MeController {
  constructor(private readonly portability: PortabilityService) {}

  @Get('export')
  @ApiOperation({
    operationId: 'exportAccount',
    summary: 'Download everything of yours: agents and every conversation (in the conversation export format)',
    description:
      'One JSON document, as an attachment, importable whole through POST /api/imports (agents included). Conversations in ' +
      'version 2 (the whole tree) unless ?version=1. Idempotency keys are not exported. Only your own data.',
  })
  @ApiOkResponse({
    type: AccountExportDto,
    description: 'The file, as an attachment.',
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="chat-memory-<name>-<date>.json"',
        schema: { type: 'string' },
      },
    },
  })
  @ApiErrors([400, 401])
  async export(
    @CurrentActor() actor: Actor,
    @Query() query: ExportVersionQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const doc = await this.portability.exportAccount(actor, query.version);
    const name = actor.id.replace(/^[a-z]+:/, '');
    const filename = safeFilename(`chat-memory-${name}`, 'chat-memory', new Date(doc.exportedAt), 'json');
    return download(res, `${JSON.stringify(doc, null, 2)}\n`, 'application/json; charset=utf-8', filename);
  }

  @Delete('data')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'eraseAccountData',
    summary: 'Erase everything of yours: conversations, agents, memories, share links, idempotency keys',
    description:
      'Deletes every conversation (its messages, threads, summaries and tags, its share links, which stop working, its AI SDK ' +
      'chat ids and /v1 response records), every agent, every long-term memory and every idempotency key. API keys stay. ' +
      'Cannot be undone. Answers how much was erased. Only your own data: other actors keep theirs.',
  })
  @ApiOkResponse({ type: ErasedDataDto })
  @ApiErrors([401])
  async erase(@CurrentActor() actor: Actor): Promise<ErasedDataDto> {
    return this.portability.eraseAccount(actor);
  }
}
