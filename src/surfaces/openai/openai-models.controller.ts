import { Controller, Get, Param, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Actor } from '../../actor-auth/actor.js';
import { CurrentActor } from '../../actor-auth/current-actor.decorator.js';
import { AgentsService } from '../../agents/agents.service.js';
import { ChatService } from '../../chat/chat.service.js';
import { unixSeconds } from './openai-conversations.js';
import { OpenAiError } from './openai-error.js';
import { OpenAiErrorFilter } from './openai-error.filter.js';

/** The configured model and the caller's agents (as `agent:<name>`), in OpenAI's model list shape. */
@ApiExcludeController()
@Controller('v1/models')
@UseFilters(OpenAiErrorFilter)
export class OpenAiModelsController {
  constructor(
    private readonly chat: ChatService,
    private readonly agents: AgentsService,
  ) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { object: 'list' as const, data: await this.models(actor) };
  }

  @Get(':model')
  async get(@CurrentActor() actor: Actor, @Param('model') model: string) {
    const found = (await this.models(actor)).find((m) => m.id === model);
    if (!found)
      throw new OpenAiError(
        404,
        `The model '${model}' does not exist or you do not have access to it.`,
        'model_not_found',
        'model',
      );
    return found;
  }

  private async models(actor: Actor) {
    const own = await this.agents.list(actor);
    const offered = await this.agents.listOffered(actor);
    return [
      { id: this.chat.defaultModel, object: 'model' as const, created: 0, owned_by: 'chat-memory' },
      ...[...own, ...offered].map((a) => ({
        id: `agent:${a.name}`,
        object: 'model' as const,
        created: unixSeconds(a.createdAt),
        owned_by: a.actor === actor.id ? 'you' : a.actor,
      })),
    ];
  }
}
