import { Body, Controller, Get, Param, ParseUUIDPipe, Patch, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';

const STATE_SCHEMA = { type: 'object', additionalProperties: true } as const;

/**
 * A conversation's session state: a JSON object (at most 64 KB) shared by its threads and
 * shown to the model. Bodies are taken as raw JSON (no DTO): any object is a valid state.
 */
@ApiTags('state')
@ApiBearerAuth()
@Controller('api/conversations/:id/state')
export class ConversationStateController {
  constructor(private readonly conversations: ConversationsService) {}

  @Get()
  @ApiOperation({
    operationId: 'getState',
    summary: 'The state object itself',
    description:
      'The free-form JSON object (at most 64 KB) the conversation carries for all its threads: its session state (docs/sessions.md).',
  })
  @ApiOkResponse({ schema: STATE_SCHEMA })
  @ApiErrors([400, 401, 404])
  get(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<Record<string, unknown>> {
    return this.conversations.getState(actor, id);
  }

  @Put()
  @ApiOperation({
    operationId: 'replaceState',
    summary: 'Replace the state with the body',
    description: 'The whole object is replaced: fields not sent are gone. At most 64 KB.',
  })
  @ApiBody({ schema: STATE_SCHEMA })
  @ApiOkResponse({ schema: STATE_SCHEMA })
  @ApiErrors([400, 401, 404, 413])
  replace(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.conversations.replaceState(actor, id, body);
  }

  @Patch()
  @ApiOperation({
    operationId: 'patchState',
    summary: 'Apply the body to the state as a JSON merge patch (RFC 7396)',
    description: 'Fields sent are set, fields sent as null are removed, nested objects merge; the result is answered.',
  })
  @ApiConsumes('application/merge-patch+json', 'application/json')
  @ApiBody({ schema: STATE_SCHEMA })
  @ApiOkResponse({ schema: STATE_SCHEMA })
  @ApiErrors([400, 401, 404, 413])
  patch(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.conversations.patchState(actor, id, body);
  }
}
