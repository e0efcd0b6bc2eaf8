// @ts-check
// What the next turn of the thread shown sends the model (GET /api/conversations/:id/context),
// message by message with their tokens, and the conversation's token usage so far.
import { $, el } from './dom.js';
import { describe } from './errors.js';
import { closeModal, openModal, restoreFocusOnClose } from './modal.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

const number = (/** @type {number} */ n) => n.toLocaleString('en');

export function wireContextPanel() {
  $('open-context').addEventListener('click', () => void openContext());
  $('context-close').addEventListener('click', () => closeModal('context-dialog'));
  restoreFocusOnClose('context-dialog');
}

async function openContext() {
  const conversation = state.current;
  if (!conversation?.id) return;
  const id = conversation.id;
  const thread = conversation.thread ?? 'main';
  $('context-heading').textContent = `What the next turn of the thread “${thread}” sends the model`;
  $('conversation-usage').textContent = 'Loading…';
  $('context-summary').textContent = '';
  $('context-messages').replaceChildren();
  $('context-error').textContent = '';
  openModal('context-dialog', $('context-close'));
  try {
    /** @type {[Schemas['ConversationDetailDto'], Schemas['ContextPreviewDto']]} */
    const [detail, context] = await Promise.all([
      api.json('GET', `api/conversations/${id}?limit=1`),
      api.json('GET', `api/conversations/${id}/context?${new URLSearchParams({ thread })}`),
    ]);
    if (state.current?.id !== id) return;
    const { promptTokens, completionTokens } = detail.usage;
    $('conversation-usage').textContent =
      `${number(promptTokens)} prompt tokens and ${number(completionTokens)} completion tokens, ${number(promptTokens + completionTokens)} in all (every thread).`;
    const left = [
      context.omittedForBudget ? `${context.omittedForBudget} left out for the budget` : '',
      context.outsideWindow ? `${context.outsideWindow} older than what is sent` : '',
      context.summaryCoversSeq != null
        ? `a summary covers up to message ${context.summaryCoversSeq}${context.summaryIncluded ? '' : ' (left out: it does not fit)'}`
        : '',
    ].filter(Boolean);
    $('context-summary').textContent =
      `Model ${context.model}: ${number(context.totalTokens)} of ${number(context.budget)} tokens used, ` +
      `${number(context.availableForMessage)} left for the next message. ` +
      `${context.messages.length} message${context.messages.length === 1 ? '' : 's'} sent${left.length ? `; ${left.join(', ')}` : ''}.`;
    $('context-messages').replaceChildren(
      ...context.messages.map((part) => {
        const item = el('li', `context-part ${part.kind}`);
        const head = el('p', 'context-part-head');
        const label = part.kind === 'history' ? part.role : part.kind;
        head.append(
          el('strong', '', label),
          el('span', '', ` · ${number(part.tokens)} tokens${part.seq != null ? ` · message ${part.seq}` : ''}`),
        );
        item.append(head, el('p', 'context-part-text', part.content));
        return item;
      }),
    );
  } catch (error) {
    $('conversation-usage').textContent = '';
    $('context-error').textContent = describe(error).text;
  }
}
