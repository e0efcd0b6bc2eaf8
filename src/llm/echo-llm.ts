import { ModelCancelledError } from './llm.errors.js';
import type { Completion, CompletionRequest, LlmPort } from './llm.port.js';

/**
 * The offline default, so the service runs with no model configured. It says plainly that it
 * is an echo and how much history it was given, which makes memory visible in a demo.
 */
export class EchoLlm implements LlmPort {
  readonly defaultModel = 'echo';

  async complete(request: CompletionRequest): Promise<Completion> {
    if (request.signal?.aborted) throw new ModelCancelledError();
    return { content: this.replyTo(request), model: this.defaultModel, usage: null, toolCalls: [] };
  }

  /** Streams the same reply word by word, yielding to the event loop between pieces. */
  async stream(request: CompletionRequest, onDelta: (text: string) => void): Promise<Completion> {
    const content = this.replyTo(request);
    for (const piece of content.match(/\S+\s*|\s+/g) ?? []) {
      if (request.signal?.aborted) throw new ModelCancelledError();
      onDelta(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { content, model: this.defaultModel, usage: null, toolCalls: [] };
  }

  private replyTo(request: CompletionRequest): string {
    const last = request.messages.at(-1);
    const history = request.messages.filter((m) => m.role === 'user' || m.role === 'assistant').length - 1;
    return (
      `Echo: ${last?.content ?? ''}\n\n` +
      `(offline echo model: I received ${history} earlier message${history === 1 ? '' : 's'} of history. ` +
      'Set LLM_BASE_URL or OPENAI_API_KEY to talk to a real model.)'
    );
  }
}
