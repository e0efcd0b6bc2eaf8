import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import { SummariesRepository } from './summaries.repository.js';
import { MessagesRepository } from './messages.repository.js';
import type { Message } from './message.entity.js';
import type { Summary } from './summary.entity.js';

interface Fold {
  /** The conversation's actor (a message of the fold tells it). */
  readonly actor: string;
  readonly conversationId: string;
  readonly thread: string;
  readonly content: string;
  readonly coversSeq: number;
  /** The seq the summary covered when the fold started; the write is dropped if it moved. */
  readonly expectedCoversSeq: number;
  readonly tokens: number;
  readonly model: string;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number };
}

/** The running summaries of threads: what is left to fold, and folds applied at most once. */
@Injectable()
export class SummariesService {
  constructor(
    private readonly db: DatabaseService,
    private readonly messageRows: MessagesRepository,
    private readonly summaries: SummariesRepository,
  ) {}

  /** The summary so far and the next messages to fold into it (seq < outsideBefore), or null when none. */
  pendingFold(
    conversationId: string,
    thread: string,
    outsideBefore: number,
    limit: number,
  ): Promise<{ previous: Summary | null; messages: Message[] } | null> {
    return this.db.read(async (em) => {
      const previous = await this.summaries.findSummary(em, conversationId, thread);
      const from = previous?.coversSeq ?? 0;
      if (outsideBefore - 1 <= from) return null;
      const messages = await this.messageRows.replayableBetween(em, conversationId, thread, from, outsideBefore, limit);
      return messages.length ? { previous, messages } : null;
    });
  }

  /** Applies a fold unless another one got there first; true when applied. */
  saveFold(fold: Fold): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const previous = await this.summaries.findSummary(em, fold.conversationId, fold.thread);
      return this.summaries.replaceSummaryIf(
        em,
        {
          actor: fold.actor,
          conversationId: fold.conversationId,
          thread: fold.thread,
          content: fold.content,
          coversSeq: fold.coversSeq,
          tokens: fold.tokens,
          model: fold.model,
          promptTokens: (previous?.promptTokens ?? 0) + fold.usage.promptTokens,
          completionTokens: (previous?.completionTokens ?? 0) + fold.usage.completionTokens,
          updatedAt: new Date(),
        },
        fold.expectedCoversSeq,
      );
    });
  }
}
