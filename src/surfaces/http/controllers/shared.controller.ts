import { Controller, Get, Header, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { Public } from '../../../actor-auth/public.decorator.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { PortabilityService } from '../../../portability/portability.service.js';
import { SharingService } from '../../../sharing/sharing.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { ApiCreated } from '../created-location.js';
import { ConversationDetailDto, toConversationDetail } from '../dto/conversation.dto.js';
import { ErrorDto } from '../../errors/error.dto.js';
import { SharedConversationDto, toSharedConversationDto } from '../dto/share.dto.js';
import { SharedReadLimit } from '../hardening/shared-read-limit.guard.js';

// A token of another shape is answered 404 like any unknown one (SharingService.read), so a reader learns nothing from its shape.
const TOKEN_PARAM = {
  name: 'token',
  description:
    'The token of the link (/s/<token>): 43 characters of A-Z, a-z, 0-9, "_" and "-". Any other text answers 404, like an unknown token.',
  // Any text is taken (and answered 404 unless it is a live link's), so the document promises no shape; a stated
  // length keeps the document's default for path ids (UUID) off it.
  schema: { type: 'string', minLength: 0 },
};

/** The reader's side of a share link: read it without a key, or continue it as a conversation of one's own. */
@ApiTags('sharing')
@Controller('api/shared')
export class SharedController {
  constructor(
    private readonly sharing: SharingService,
    private readonly portability: PortabilityService,
    private readonly conversations: ConversationsService,
  ) {}

  @Get(':token')
  @Public()
  @UseGuards(SharedReadLimit)
  // Never kept by a cache (a revoked link must stop at once) nor listed by a search engine.
  @Header('Cache-Control', 'no-store')
  @Header('X-Robots-Tag', 'noindex')
  @ApiOperation({
    operationId: 'readShared',
    summary: 'Read a shared conversation (no key needed)',
    description:
      'The title and the messages of the snapshot (role, content, model, createdAt), nothing else. An unknown, malformed, expired or revoked ' +
      'token answers 404, all alike. Limited per client address (SHARED_READS_PER_MINUTE, 429 with Retry-After).',
    security: [],
  })
  @ApiOkResponse({ type: SharedConversationDto })
  @ApiParam(TOKEN_PARAM)
  @ApiErrors([400, 404])
  @ApiResponse({
    status: 429,
    type: ErrorDto,
    description: 'Too many reads from this address (SHARED_READS_PER_MINUTE); see Retry-After',
    headers: {
      'Retry-After': {
        required: true,
        description: 'Seconds until the same request may succeed.',
        schema: { type: 'integer', minimum: 0 },
      },
      RateLimit: { description: '`limit=<n>, remaining=<n>, reset=<seconds>`.', schema: { type: 'string' } },
      'RateLimit-Policy': { description: '`<limit>;w=60`.', schema: { type: 'string' } },
    },
  })
  async read(@Param('token') token: string): Promise<SharedConversationDto> {
    return toSharedConversationDto(await this.sharing.read(token));
  }

  @Post(':token/fork')
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'forkShared',
    summary: 'Continue a shared conversation as your own',
    description:
      'A new conversation of yours holding the snapshot (main thread, titled "<title> (fork)"), to continue from. 404 as for reading.',
  })
  @ApiCreated(ConversationDetailDto, (c) => `/api/conversations/${c.id}`)
  @ApiParam(TOKEN_PARAM)
  @ApiErrors([400, 401, 404, 409])
  async fork(@CurrentActor() actor: Actor, @Param('token') token: string): Promise<ConversationDetailDto> {
    const id = await this.portability.forkShared(actor, token);
    return toConversationDetail(await this.conversations.getWithMessages(actor, id));
  }
}
