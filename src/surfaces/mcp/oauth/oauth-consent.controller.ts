import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { OAuthService } from '../../../oauth/oauth.service.js';

class ApproveRequestDto {
  /** Whether the client may also use tools that write (scope history:write), when it asked for them. */
  @IsOptional()
  @IsBoolean()
  write?: boolean;
}

const GONE =
  'No such authorization request: it is unknown, already decided, or expired (it lasts 10 minutes); start again from the client';

/**
 * What the consent page (web/connect.html) calls: the pending request it shows, the user's
 * decision, and the clients connected. Every route needs the user's own credentials (an API key
 * in the Authorization header, or single-user mode), never a cookie, so another site cannot make
 * a browser approve; an OAuth access token is not accepted here (its audience is /mcp).
 * Part of the OAuth server, not of the REST API, so not in docs/openapi.json.
 */
@ApiExcludeController()
@Controller('oauth')
export class OAuthConsentController {
  constructor(private readonly oauth: OAuthService) {}

  @Get('requests/:id')
  async request(@CurrentActor() _actor: Actor, @Param('id', ParseUUIDPipe) id: string) {
    const pending = await this.oauth.pending(id.toLowerCase());
    if (!pending) throw new NotFoundException(GONE);
    return { id: pending.id, clientName: pending.clientName, redirectUri: pending.redirectUri, scopes: pending.scopes };
  }

  @Post('requests/:id/approve')
  @HttpCode(200)
  async approve(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: ApproveRequestDto,
  ): Promise<{ redirectTo: string }> {
    const redirectTo = await this.oauth.approve(actor, id.toLowerCase(), body.write === true);
    if (!redirectTo) throw new NotFoundException(GONE);
    return { redirectTo };
  }

  @Post('requests/:id/deny')
  @HttpCode(200)
  async deny(@CurrentActor() _actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<{ redirectTo: string }> {
    const redirectTo = await this.oauth.deny(id.toLowerCase());
    if (!redirectTo) throw new NotFoundException(GONE);
    return { redirectTo };
  }

  @Get('connections')
  async connections(@CurrentActor() actor: Actor) {
    const items = await this.oauth.connections(actor);
    return { items: items.map((c) => ({ ...c, connectedAt: c.connectedAt.toISOString() })) };
  }

  @Delete('connections/:clientId')
  @HttpCode(204)
  async disconnect(@CurrentActor() actor: Actor, @Param('clientId', ParseUUIDPipe) clientId: string): Promise<void> {
    // Another actor's client answers like an unknown one.
    if (!(await this.oauth.disconnect(actor, clientId.toLowerCase())))
      throw new NotFoundException('No connected client with this id');
  }
}
