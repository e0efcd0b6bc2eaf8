import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ModelCatalog } from '../../../llm/model-catalog.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';

class ModelDto {
  @ApiProperty({ example: 'gpt-4o-mini' }) id: string;
}

class ModelListDto {
  @ApiProperty({ type: [ModelDto], description: 'The models a conversation may choose, the default first.' })
  items: ModelDto[];
  @ApiProperty({ description: 'The model turns call when neither the conversation nor its agent chooses one.' })
  defaultModel: string;
}

/** The models offered: what the model picker lists, and what a conversation's `model` is checked against. */
@ApiTags('conversations')
@ApiBearerAuth()
@Controller('api/models')
export class ModelsController {
  constructor(private readonly catalog: ModelCatalog) {}

  @Get()
  @ApiOperation({
    operationId: 'listModels',
    summary: 'List the models a conversation may choose',
    description:
      "LLM_MODELS when set, else the model server's own list (GET /v1/models, read at most once a minute), else the default model alone.",
  })
  @ApiOkResponse({ type: ModelListDto })
  @ApiErrors([401])
  async list(): Promise<ModelListDto> {
    const offered = await this.catalog.offered();
    return { items: offered.models.map((id) => ({ id })), defaultModel: offered.defaultModel };
  }
}
