import type { ItemDraft } from '../../conversations/conversation-items.service.js';
import type { Message, MessageStatus } from '../../conversations/message.entity.js';
import { functionCallItemId, functionOutputItemId, messageItemId } from './openai-ids.js';
import type { InputItem } from './openai-schemas.js';

/** A message's status as an item's (`in_progress` while generated, `incomplete` when it did not finish). */
export function itemStatus(status: MessageStatus): 'in_progress' | 'completed' | 'incomplete' {
  if (status === 'streaming') return 'in_progress';
  return status === 'complete' ? 'completed' : 'incomplete';
}

export function outputText(text: string) {
  return { type: 'output_text' as const, text, annotations: [], logprobs: [] };
}

/** A stored message as the items it stands for: one, or for a reply that called functions, its text (if any) and each call. */
export function itemsOf(m: Message): Array<Record<string, unknown>> {
  if (m.role === 'tool')
    return [
      {
        type: 'function_call_output',
        id: functionOutputItemId(m.id),
        call_id: m.callId ?? '',
        output: m.content,
        status: 'completed',
      },
    ];
  const status = itemStatus(m.status);
  if (m.role !== 'assistant') {
    return [
      {
        type: 'message',
        id: messageItemId(m.id),
        role: m.role,
        status,
        content: [{ type: 'input_text', text: m.content }],
      },
    ];
  }
  const calls = (m.functionCalls ?? []).map((c, i) => ({
    type: 'function_call',
    id: functionCallItemId(m.id, i),
    call_id: c.callId,
    name: c.name,
    arguments: c.arguments,
    status: 'completed',
  }));
  const text =
    m.content !== '' || calls.length === 0
      ? [{ type: 'message', id: messageItemId(m.id), role: 'assistant', status, content: [outputText(m.content)] }]
      : [];
  return [...text, ...calls];
}

/** Input items as the messages to store, in order; function calls in a row become one reply asking for them all. */
export function draftsOf(items: readonly InputItem[]): ItemDraft[] {
  const drafts: ItemDraft[] = [];
  for (const item of items) {
    if (item.type === 'function_call') {
      const call = { callId: item.call_id, name: item.name, arguments: item.arguments };
      const last = drafts.at(-1);
      // Calls asked for together are answered together: chat completions wants them on one assistant message.
      if (last?.role === 'assistant' && last.functionCalls?.length && last.content === '')
        drafts[drafts.length - 1] = { ...last, functionCalls: [...last.functionCalls, call] };
      else drafts.push({ role: 'assistant', content: '', functionCalls: [call] });
    } else if (item.type === 'function_call_output') {
      drafts.push({ role: 'tool', content: item.output, callId: item.call_id });
    } else {
      drafts.push({ role: item.role === 'developer' ? 'system' : item.role, content: item.content });
    }
  }
  return drafts;
}
