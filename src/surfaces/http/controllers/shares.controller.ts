import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { SharingService } from '../../../sharing/sharing.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { ApiCreated } from '../created-location.js';
import { CreatedShareDto, CreateShareDto, ShareListDto, toShareDto } from '../dto/share.dto.js';

/** The owner's side of share links: make one of a conversation, list them, revoke one. */
@ApiTags('sharing')
@ApiBearerAuth()
@Controller('api')
export class SharesController {
  constructor(private readonly sharing: SharingService) {}

  @Post('conversations/:id/shares')
  @ApiOperation({
    operationId: 'createShare',
    summary: 'Share a conversation by link: a read-only snapshot of its active path as it is now',
    description:
      'Copies the main active path (or the branch up to messageId) now: later turns and edits never show through the link. ' +
      'The token is answered only here (only its hash is kept). The link needs no key; expiresAt ends it by itself, DELETE /api/shares/{id} at once. ' +
      'At most 100 shares per conversation (409).',
  })
  // Every field is optional: no body at all shares the whole active path.
  @ApiBody({ type: CreateShareDto, required: false })
  @ApiCreated(CreatedShareDto, (s) => `/api/shares/${s.id}`)
  @ApiErrors([400, 401, 404, 409])
  async create(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: CreateShareDto,
  ): Promise<CreatedShareDto> {
    const { share, token, url } = await this.sharing.create(actor, id, {
      messageId: body.messageId?.toLowerCase(),
      expiresAt: body.expiresAt === undefined ? undefined : new Date(body.expiresAt),
    });
    return {
      id: share.id,
      url,
      token,
      createdAt: share.createdAt.toISOString(),
      expiresAt: share.expiresAt?.toISOString() ?? null,
    };
  }

  @Get('conversations/:id/shares')
  @ApiOperation({
    operationId: 'listShares',
    summary: "A conversation's share links, newest first (without their tokens)",
    description: "Each link's id and dates; a token is shown only once, in the answer that makes the link.",
  })
  @ApiOkResponse({ type: ShareListDto })
  @ApiErrors([400, 401, 404])
  async list(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<ShareListDto> {
    return { items: (await this.sharing.list(actor, id)).map(toShareDto) };
  }

  @Delete('shares/:id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeShare',
    summary: 'Revoke a share link: it answers 404 from now on, on every instance',
    description: 'The link stops working at once; a conversation a reader already continued from it stays theirs.',
  })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiErrors([400, 401, 404])
  async revoke(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.sharing.revoke(actor, id.toLowerCase());
  }
}
