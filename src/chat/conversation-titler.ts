import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { titleFromFirstMessage, UNTITLED } from '../conversations/title.js';
import { LLM_PORT, type LlmPort } from '../llm/llm.port.js';
import type { StartedTurn } from './turn.js';

/** A title is a few words: the model may write this many tokens (a reasoning model's thinking counts too). */
const TITLE_MAX_TOKENS = 48;
/** The longest a title call may take; the model's own timeout (LLM_TIMEOUT_MS) when shorter. */
const TITLE_TIMEOUT_MS = 10_000;
/** What the model is shown of the question and of the reply. */
const EXCERPT_CHARS = 1_000;

const INSTRUCTIONS =
  'Write a title of at most six words for the conversation below, in its language. ' +
  'Answer with the title alone: no quotes, no Markdown, no final period.';

/**
 * TITLE_MODE=model: once a conversation's first reply is stored, asks the model for a title in
 * the background. The reply never waits for it; the call is bounded in tokens and time; any
 * failure keeps the title taken from the first message, and a title the user gave meanwhile is
 * never replaced.
 */
@Injectable()
export class ConversationTitler implements OnModuleDestroy {
  private readonly logger = new Logger(ConversationTitler.name);
  private readonly calls = new Set<AbortController>();

  constructor(
    private readonly conversations: ConversationsService,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** After a complete reply: titles the conversation if this was its first turn and its title is still the first message's. */
  afterReply(turn: StartedTurn, reply: string): void {
    if (this.config.titleMode !== 'model' || turn.question.seq !== 1 || turn.question.role !== 'user') return;
    if (turn.conversation.title !== titleFromFirstMessage(turn.question.content)) return;
    void this.title(turn, reply);
  }

  private async title(turn: StartedTurn, reply: string): Promise<void> {
    const stop = new AbortController();
    this.calls.add(stop);
    const timeoutMs = Math.min(
      TITLE_TIMEOUT_MS,
      this.config.llm.provider === 'openai' ? this.config.llm.timeoutMs : TITLE_TIMEOUT_MS,
    );
    const timer = setTimeout(() => stop.abort(), timeoutMs);
    try {
      const completion = await this.llm.complete({
        model: turn.model,
        maxTokens: TITLE_MAX_TOKENS,
        signal: stop.signal,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          {
            role: 'user',
            content: `User: ${turn.question.content.slice(0, EXCERPT_CHARS)}\n\nAssistant: ${reply.slice(0, EXCERPT_CHARS)}`,
          },
        ],
      });
      const title = cleanTitle(completion.content);
      if (title === UNTITLED) return;
      await this.conversations.retitleIf(
        { id: turn.conversation.actor },
        turn.conversation.id,
        turn.conversation.title,
        title,
      );
    } catch (error) {
      // The first message's title stays: a title is a nicety, never an error.
      this.logger.warn(`The model did not title conversation ${turn.conversation.id}: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
      this.calls.delete(stop);
    }
  }

  onModuleDestroy(): void {
    for (const call of this.calls) call.abort();
  }
}

/** The model's answer as a title: its thinking (`<think>` blocks), quotes, Markdown and final period dropped. */
function cleanTitle(answer: string): string {
  const text = answer
    .slice(0, 2_000)
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .trim()
    .replace(/^(title:\s*)/i, '');
  const title = titleFromFirstMessage(text.split('\n').find((line) => line.trim() !== '') ?? '');
  return titleFromFirstMessage(title.replace(/^["'“”‘’«»]+|["'“”‘’«».]+$/g, ''));
}
