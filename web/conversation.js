// @ts-check
// The conversation view: the title bar, the messages (message-view.js), the regenerate button
// after the last one. It renders what the state says when the conversation shown changes (the
// `conversation` topic), and the button again when a reply starts or ends (`busy`).
import { agentName } from './agents.js';
import { regenerate, updateComposer } from './composer.js';
import { $, el } from './dom.js';
import { earlierView } from './earlier.js';
import { renderConversationMenu } from './conversation-menu.js';
import { scrollToEnd, views } from './message-elements.js';
import { messageView } from './message-view.js';
import { renderModelPicker } from './model-picker.js';
import { state } from './state.js';
import { renderThreadBar } from './thread-panel.js';

export function renderConversation() {
  const conversation = state.current;
  const title = conversation ? conversation.title : 'New chat';
  $('title').textContent = title;
  document.title = `${title} · chat-memory`;
  $('agent-badge').hidden = !conversation;
  $('agent-badge').textContent = conversation
    ? conversation.agentId
      ? `Agent: ${agentName(conversation.agentId)}`
      : 'No agent'
    : '';
  $('agent-picker').hidden = Boolean(conversation);
  $('conversation-actions').hidden = !conversation?.id;
  renderConversationMenu();
  renderThreadBar();
  renderModelPicker();

  views.clear();
  const messages = conversation?.messages ?? [];
  const earlier = conversation?.nextBefore != null ? [earlierView(conversation)] : []; // none: the list stays :empty for a new chat
  $('messages').replaceChildren(...earlier, ...messages.map(messageView));
  renderEmptyHint(earlier.length > 0);
  renderActions();
  updateComposer();
  scrollToEnd(true);
}

const NEW_CHAT_HINT = {
  title: 'Start a conversation',
  text: 'Type a message below. Replies stream in as the model writes them, and the conversation is kept: come back to it later from the list.',
};

/**
 * What to do when there is nothing to show: a new chat, or a stored conversation's thread without
 * messages yet (just started from "New thread").
 * @param {boolean} hasEarlier
 */
function renderEmptyHint(hasEarlier) {
  const conversation = state.current;
  const emptyThread =
    Boolean(conversation?.id) && !conversation?.loading && !hasEarlier && conversation?.messages.length === 0;
  $('empty-hint').hidden = Boolean(conversation) && !emptyThread;
  if (conversation && emptyThread) {
    const prompt =
      conversation.threads?.find((t) => t.name === conversation.thread)?.systemPrompt ?? conversation.pendingSystem;
    $('empty-title').textContent = `The thread “${conversation.thread ?? 'main'}” is empty`;
    $('empty-text').textContent =
      `Its first message starts it, with a history of its own${prompt ? ' and its own system prompt' : ''}: the other threads of this conversation are not sent. Switch back to them with “Thread” above.`;
  } else {
    $('empty-title').textContent = NEW_CHAT_HINT.title;
    $('empty-text').textContent = NEW_CHAT_HINT.text;
  }
}

/** The `busy` topic: the regenerate button comes and goes; a reply that ended is kept in view. */
export function renderBusy() {
  renderActions();
  if (!state.busy) scrollToEnd(false);
}

/** The regenerate button after the last message, when there is something to answer again. */
function renderActions() {
  document.querySelector('.message-actions')?.remove();
  const conversation = state.current;
  const last = conversation?.messages.at(-1);
  if (!conversation?.id || !last || state.busy) return;
  if (last.role === 'assistant' && last.status === 'streaming') return;
  const actions = el('div', 'message-actions');
  const answered = last.role === 'assistant';
  const button = el('button', 'button subtle', answered ? 'Regenerate' : 'Get an answer');
  button.type = 'button';
  button.id = 'regenerate';
  if (answered) button.setAttribute('aria-label', 'Regenerate the last reply');
  button.addEventListener('click', () => void regenerate());
  actions.append(button);
  $('messages').append(actions);
}
