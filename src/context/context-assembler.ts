import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ContextAgent, ContextMessage, ContextSources } from './context-sources.js';
import { planContext, type HistoryItem, type PlannedContext } from './context-planner.js';
import {
  memoryHeader,
  memoryLine,
  RECALL_HEADER,
  recallExcerpt,
  stateMessage,
  summaryMessage,
} from './state-message.js';
import { TokenCounter } from './token-counter.js';

/**
 * Gathers what a turn tells the model (agent instructions, operator SYSTEM_PROMPT, the thread's
 * own prompt, the state, the running summary, the recent history) and plans it within the
 * budget. Stored messages carry their token counts, so planning adds integers; only prompts
 * are counted here, and those repeat, so they are cached.
 */
@Injectable()
export class ContextAssembler {
  constructor(
    private readonly tokens: TokenCounter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  budgetFor(agent: ContextAgent | null): number {
    return agent?.contextTokenBudget ?? this.config.contextTokenBudget;
  }

  usesStateTool(agent: ContextAgent | null): boolean {
    return agent?.tools.includes('update_state') ?? false;
  }

  assemble(sources: ContextSources): PlannedContext {
    const { model, agent } = sources;
    const prompts = [
      agent?.systemPrompt,
      this.config.systemPrompt,
      sources.thread?.systemPrompt,
      stateMessage(sources.state, this.usesStateTool(agent)),
    ]
      .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      .map((content) => ({ content, tokens: this.tokens.countCached(content, model) }));
    // A turn's own instructions change from turn to turn: counted, not cached.
    const own = sources.instructions?.trim()
      ? [{ content: sources.instructions, tokens: this.tokens.count(sources.instructions, model) }]
      : [];
    const system = [...prompts, ...own];
    // With SUMMARY_MODE=off a summary made earlier is no longer kept up to date, so it is not sent either.
    const summary =
      sources.summary && this.config.summaryMode === 'rolling'
        ? (() => {
            const content = summaryMessage(sources.summary.content);
            return { content, tokens: this.tokens.countCached(content, model), coversSeq: sources.summary.coversSeq };
          })()
        : null;
    const history = sources.history.filter(replayable).map((m): HistoryItem => {
      const calls = m.role === 'assistant' && m.functionCalls?.length ? m.functionCalls : null;
      const tokens =
        (m.tokens ?? this.tokens.count(m.content, model)) +
        (calls ? this.tokens.count(calls.map((c) => c.name + c.arguments).join(''), model) : 0);
      return {
        seq: m.seq,
        role: m.role as HistoryItem['role'],
        content: m.content,
        tokens,
        functionCalls: calls,
        callId: m.role === 'tool' ? m.callId : null,
      };
    });
    const pinned = (sources.pinned ?? [])
      .filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content !== '')
      .map((m) => ({
        seq: m.seq,
        role: m.role as 'user' | 'assistant',
        content: m.content,
        tokens: m.tokens ?? this.tokens.count(m.content, model),
      }));
    const ids = sources.memoryIdsShown ?? false;
    // Memories come back turn after turn: their lines are counted once (cached).
    const memories = sources.memories?.length
      ? {
          header: memoryHeader(ids),
          headerTokens: this.tokens.countCached(memoryHeader(ids), model),
          budget: this.config.memoryTokenBudget,
          lines: sources.memories.map((m) => {
            const content = memoryLine(m, ids);
            // The text's stored count plus its prefix ("- " or "- [id] ", cached) and the line break that joins it.
            const text = m.tokens ?? this.tokens.count(m.text, model);
            return {
              id: m.id,
              content,
              tokens: text + this.tokens.countCached(memoryLine({ id: m.id, text: '' }, ids), model) + 1,
            };
          }),
        }
      : null;
    // Recalled excerpts change with every question: counted, not cached (the header is).
    const recall = sources.recalled?.length
      ? {
          header: RECALL_HEADER,
          headerTokens: this.tokens.countCached(RECALL_HEADER, model),
          budget: this.config.recallTokenBudget,
          excerpts: sources.recalled.map((r) => {
            const content = recallExcerpt(r);
            // Stored texts carry their counts: only the title is counted (cached: titles repeat),
            // plus a bound for the date, the role prefixes and the line breaks that join them.
            const tokens =
              r.tokens != null
                ? r.tokens + this.tokens.countCached(r.conversationTitle, model) + EXCERPT_FRAME
                : this.tokens.count(content, model) + 1;
            return { id: r.id, content, tokens };
          }),
        }
      : null;
    const stretch = this.config.summaryMode === 'rolling';
    const budgetSource = agent?.contextTokenBudget != null ? "the agent's contextTokenBudget" : 'CONTEXT_TOKEN_BUDGET';
    return planContext({
      budget: this.budgetFor(agent),
      budgetSource,
      window: this.config.historyWindow,
      system,
      summary,
      history,
      newMessage: sources.newMessage,
      stretch,
      pinned,
      memories,
      recall,
    });
  }

  count(text: string, model: string): number {
    return this.tokens.count(text, model);
  }

  encodingName(model: string): string {
    return this.tokens.encodingName(model);
  }
}

/**
 * What an excerpt costs at most besides its texts and its title: the date and brackets
 * (`[2026-01-02, "`, `"]`), the role prefixes (`user: `, `assistant: `), the line breaks and the
 * blank line that joins it to the next.
 */
const EXCERPT_FRAME = 20;

/**
 * What is sent again: questions and answers with text or calls, the outputs of calls, and the
 * system messages a client placed in the conversation (instructions it gave at that point).
 */
function replayable(m: ContextMessage): boolean {
  if (m.role === 'tool') return !!m.callId;
  if (m.role === 'system') return m.content !== '';
  return (
    (m.role === 'user' || m.role === 'assistant') &&
    (m.content !== '' || (m.role === 'assistant' && !!m.functionCalls?.length))
  );
}
