import { Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { EchoLlm } from './echo-llm.js';
import { LLM_PORT, type LlmPort } from './llm.port.js';
import { OpenAiLlm } from './openai-llm.js';
import { ModelCatalog } from './model-catalog.js';

/** Provides LLM_PORT: the OpenAI-compatible client when a model is configured, else the echo model. */
@Module({
  providers: [
    {
      provide: LLM_PORT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): LlmPort => {
        const logger = new Logger('Llm');
        if (config.llm.provider === 'echo') {
          if (config.llm.chosen)
            logger.warn(
              'LLM_MODEL=echo: the offline echo model answers (it repeats the question; no model server is called).',
            );
          else logger.warn('No model configured (LLM_BASE_URL / OPENAI_API_KEY): the offline echo model answers.');
          return new EchoLlm();
        }
        // The address is configuration, not a secret; the key is never logged. At the default level
        // the start-up line (main.ts) names them: one line, not one per module.
        logger.debug(`Model ${config.llm.model} at ${config.llm.baseUrl ?? 'the OpenAI API'}`);
        return new OpenAiLlm(config.llm);
      },
    },
    ModelCatalog,
  ],
  exports: [LLM_PORT, ModelCatalog],
})
export class LlmModule {}
