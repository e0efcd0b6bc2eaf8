import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { LLM_PORT, type LlmPort } from './llm.port.js';

/** How long the model server's list is kept before it is asked again. */
const SERVER_LIST_TTL_MS = 60_000;
/** A server's list is read this far (names the model column can hold). */
const MAX_SERVER_MODELS = 200;
const MAX_MODEL_NAME_CHARS = 200;

interface OfferedModels {
  /** The default model first, then the others in their order. */
  readonly models: readonly string[];
  readonly defaultModel: string;
}

/**
 * The models a conversation may choose: LLM_MODELS when set, else what the model server lists
 * (GET /v1/models, asked at most once a minute), else the default model alone. The default
 * model is always offered.
 */
@Injectable()
export class ModelCatalog {
  private readonly logger = new Logger(ModelCatalog.name);
  private cached: { models: readonly string[]; until: number } | null = null;
  private asking: Promise<readonly string[]> | null = null;

  constructor(
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async offered(): Promise<OfferedModels> {
    const defaultModel = this.llm.defaultModel;
    const others = this.config.llmModels.length ? this.config.llmModels : await this.serverModels();
    return { models: [defaultModel, ...others.filter((m) => m !== defaultModel)], defaultModel };
  }

  /** Whether `model` may be chosen. */
  async offers(model: string): Promise<boolean> {
    return (await this.offered()).models.includes(model);
  }

  private async serverModels(): Promise<readonly string[]> {
    if (!this.llm.listModels) return [];
    if (this.cached && this.cached.until > Date.now()) return this.cached.models;
    // Callers at the same moment share one request.
    this.asking ??= this.ask().finally(() => (this.asking = null));
    return this.asking;
  }

  private async ask(): Promise<readonly string[]> {
    let models: readonly string[] = [];
    try {
      const listed = (await this.llm.listModels!()).slice(0, MAX_SERVER_MODELS);
      models = [...new Set(listed.filter((m) => m && m.length <= MAX_MODEL_NAME_CHARS && !m.includes('\u0000')))];
    } catch (error) {
      // Many servers have no list, or refuse it: the default model is offered alone.
      this.logger.debug(`The model server did not list its models: ${(error as Error).message}`);
    }
    this.cached = { models, until: Date.now() + SERVER_LIST_TTL_MS };
    return models;
  }
}
