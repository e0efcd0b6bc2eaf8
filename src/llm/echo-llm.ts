import type { Completion, CompletionRequest, LlmPort } from './llm.port.js';

/**
 * The offline default, so the service runs with no model configured. It says plainly that it
 * is an echo and how much history it was given, which makes memory visible in a demo.
 */
export class EchoLlm implements LlmPort {
  readonly defaultModel = 'echo';

  async complete(request: CompletionRequest): Promise<Completion> {
    const last = request.messages.at(-1);
    const history = request.messages.filter((m) => m.role !== 'system').length - 1;
    const content =
      `Echo: ${last?.content ?? ''}\n\n` +
      `(offline echo model: I received ${history} earlier message${history === 1 ? '' : 's'} of history. ` +
      'Set LLM_BASE_URL or OPENAI_API_KEY to talk to a real model.)';
    return { content, model: this.defaultModel, usage: null };
  }
}
