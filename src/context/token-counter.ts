import { Injectable, Logger, type OnModuleInit, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { countTokensBounded } from './bounded-count.js';

type EncodingName = 'o200k_base' | 'cl100k_base';
type Encoder = { countTokens(text: string): number };

/**
 * Which BPE encoding a model uses. OpenAI's current models (gpt-4o, gpt-4.1, gpt-5, o-series)
 * use o200k_base; gpt-4, gpt-3.5 and the ada-002 embeddings use cl100k_base. Any other name
 * (llama, mistral, qwen on a local server…) falls back to o200k_base: an estimate, usually
 * within 10–15% of the model's own tokenizer.
 */
export function encodingForModel(model: string): EncodingName {
  const name = model.toLowerCase().replace(/^.*\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o1|o3|o4|gpt-oss)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-ada-002|text-embedding-3)/.test(name)) return 'cl100k_base';
  return 'o200k_base';
}

/** The chat format adds a few tokens around every message and primes the reply (OpenAI's published counts). */
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_PER_REQUEST = 3;

const loaders: Record<EncodingName, () => Promise<Encoder>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
};

/**
 * Counts tokens with the encoding of the model. Encodings are large, so each loads on first
 * need: the default model's at start, others in the background the first time a model asks
 * for them (until loaded, the default encoding stands in, as it does for unknown models).
 */
@Injectable()
export class TokenCounter implements OnModuleInit {
  private readonly logger = new Logger(TokenCounter.name);
  private readonly loaded = new Map<EncodingName, Encoder>();
  private readonly loading = new Map<EncodingName, Promise<void>>();
  private readonly fallback: EncodingName;
  // Prompts repeat turn after turn (agent and operator instructions): count each once.
  private readonly cache = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.fallback = encodingForModel(config.llm.provider === 'openai' ? config.llm.model : 'echo');
  }

  async onModuleInit(): Promise<void> {
    await this.load(this.fallback);
  }

  /** Tokens of a text for `model`, in time linear in its length (countTokensBounded). */
  count(text: string, model: string): number {
    return countTokensBounded(this.encoderFor(model), text);
  }

  /** Like count, remembering the answer for texts that come back every turn. */
  countCached(text: string, model: string): number {
    const key = `${encodingForModel(model)}\u0000${text}`;
    let tokens = this.cache.get(key);
    if (tokens === undefined) {
      tokens = this.count(text, model);
      if (this.cache.size > 2_000) this.cache.clear();
      this.cache.set(key, tokens);
    }
    return tokens;
  }

  /** Tokens a message costs in a request: its content plus the chat format's overhead. */
  messageTokens(contentTokens: number): number {
    return contentTokens + TOKENS_PER_MESSAGE;
  }

  encodingName(model: string): EncodingName {
    const wanted = encodingForModel(model);
    return this.loaded.has(wanted) ? wanted : this.fallback;
  }

  private encoderFor(model: string): Encoder {
    const wanted = encodingForModel(model);
    const encoder = this.loaded.get(wanted);
    if (encoder) return encoder;
    void this.load(wanted);
    const stand = this.loaded.get(this.fallback);
    if (!stand) throw new Error('TokenCounter used before its module was initialised');
    return stand;
  }

  private load(name: EncodingName): Promise<void> {
    let pending = this.loading.get(name);
    if (!pending) {
      pending = loaders[name]().then(
        (encoder) => void this.loaded.set(name, encoder),
        (error: Error) => this.logger.error(`Could not load the ${name} encoding: ${error.message}`),
      );
      this.loading.set(name, pending);
    }
    return pending;
  }
}
