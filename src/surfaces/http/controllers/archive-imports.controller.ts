import { Controller, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { ArchiveImportService } from '../../../portability/archive-import.service.js';
import { ArchiveTooLargeError } from '../../../portability/archives/archive.errors.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { isZipType } from '../hardening/import-body.js';
import { ArchiveErrorDto, ArchiveImportQueryDto, ArchiveImportReportDto } from '../dto/archive-import.dto.js';

/** The raw body of an archive: described here, never parsed by the JSON body parser (see hardening/import-body.ts). */
const ARCHIVE_SCHEMA = {
  description:
    'A ChatGPT conversations.json (an array of conversations with "mapping" and "current_node"), an Open WebUI export ' +
    '(an array of chats with "chat.history"), or a chat-memory account export (GET /api/me/export). Told apart by content. ' +
    "Or a ZIP holding one of them: ChatGPT's export as downloaded (its conversations.json is read), or a single .json file.",
  oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }, { type: 'string', format: 'binary' }],
};

/** Archives of other tools (and our own account export) into conversations, read as a stream. */
@ApiTags('conversations')
@ApiBearerAuth()
@Controller('api/imports')
export class ArchiveImportsController {
  constructor(
    private readonly archives: ArchiveImportService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'importArchive',
    summary: 'Import a ChatGPT or Open WebUI archive, or a chat-memory account export, as conversation trees',
    description:
      'The body is the file itself (Content-Type: application/json, application/zip or application/octet-stream), read as a ' +
      'stream one conversation at a time, up to IMPORT_BODY_LIMIT_BYTES. A ZIP (told by its first bytes) is decompressed as ' +
      'it is read, its conversations.json (or single archive .json) up to IMPORT_UNZIPPED_LIMIT_BYTES. Every branch is kept and the version last shown is the ' +
      'active path. Each conversation is stored on its own: a damaged one is skipped with its reason, and so is every one ' +
      'past MAX_CONVERSATIONS_PER_ACTOR or over MAX_MESSAGES_PER_CONVERSATION. The agents and memories of an account export ' +
      'are listed in the report and taken only when asked for: ?agents=true creates the agents (one of yours with the same ' +
      'name and settings is reused, a name you use for another agent gets a " (2)" suffix, those past MAX_AGENTS_PER_ACTOR ' +
      'are skipped) and links its conversations to them; ?memories=true takes the memories, unpinned unless ?pinMemories=true. ' +
      '?dryRun=true answers the same report and stores nothing. A file that is none of the formats is a 400 ' +
      'naming them; one that goes wrong part way answers its error with the conversations stored before that point.',
  })
  @ApiConsumes('application/json', 'application/zip', 'application/octet-stream')
  @ApiBody({ required: true, schema: ARCHIVE_SCHEMA })
  @ApiOkResponse({ type: ArchiveImportReportDto })
  @ApiErrors([400, 413], ArchiveErrorDto)
  @ApiErrors([401, 415])
  async import(
    @CurrentActor() actor: Actor,
    @Query() query: ArchiveImportQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ArchiveImportReportDto> {
    const maxBytes = Math.max(this.config.importBodyLimitBytes, this.config.bodyLimitBytes);
    try {
      const length = Number(req.headers['content-length']);
      // Refused unread when the size is announced.
      if (length > maxBytes) throw new ArchiveTooLargeError(maxBytes);
      const requested = {
        memories: query.memories === true,
        agents: query.agents === true,
        pinMemories: query.pinMemories === true,
      };
      return await this.archives.importArchive(actor, req, {
        dryRun: query.dryRun === true,
        maxBytes,
        declaredZip: isZipType(req),
        requested,
      });
    } catch (error) {
      // A body left unread (refused early, or a reader that stopped) is not drained: the connection closes.
      if (!req.readableEnded) res.set('Connection', 'close');
      throw error;
    }
  }
}
