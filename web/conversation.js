// @ts-check
// The conversation view: the title bar, the messages (replies as safe Markdown), the regenerate
// button after the last one, and what screen readers are told.
import { agentName } from './agents.js';
import { regenerate, updateComposer } from './composer.js';
import { $, el } from './dom.js';
import { earlierView } from './earlier.js';
import { renderConversationMenu } from './conversation-menu.js';
import { paintExtras } from './message-extras.js';
import { renderModelPicker } from './model-picker.js';
import { decorateCodeBlocks, messageFooter, paintFooter, statusNote } from './message-tools.js';
import { renderMarkdown } from './render.js';
import { state } from './state.js';
import { renderThreadBar } from './thread-panel.js';

/** @typedef {import('./state.js').ViewMessage} ViewMessage */
/** @typedef {{ article: HTMLElement, extras: HTMLElement, body: HTMLElement, note: HTMLElement, footer: HTMLElement }} MessageElements */

/** @type {Map<ViewMessage, MessageElements>} message object -> its elements in the list */
export const views = new Map();

export function renderConversation() {
  const conversation = state.current;
  const title = conversation ? conversation.title : 'New chat';
  $('title').textContent = title;
  document.title = `${title} · chat-memory`;
  $('agent-badge').hidden = !conversation;
  $('agent-badge').textContent = conversation ? (conversation.agentId ? `Agent: ${agentName(conversation.agentId)}` : 'No agent') : '';
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
  const emptyThread = Boolean(conversation?.id) && !conversation?.loading && !hasEarlier && conversation?.messages.length === 0;
  $('empty-hint').hidden = Boolean(conversation) && !emptyThread;
  if (conversation && emptyThread) {
    const prompt = conversation.threads?.find((t) => t.name === conversation.thread)?.systemPrompt ?? conversation.pendingSystem;
    $('empty-title').textContent = `The thread “${conversation.thread ?? 'main'}” is empty`;
    $('empty-text').textContent = `Its first message starts it, with a history of its own${prompt ? ' and its own system prompt' : ''}: the other threads of this conversation are not sent. Switch back to them with “Thread” above.`;
  } else {
    $('empty-title').textContent = NEW_CHAT_HINT.title;
    $('empty-text').textContent = NEW_CHAT_HINT.text;
  }
}

/** @param {ViewMessage} message */
export function messageView(message) {
  const article = el('article', `message ${message.role}`);
  article.append(el('h2', 'visually-hidden', message.role === 'user' ? 'You said:' : 'The assistant said:'));
  const extras = el('div', 'message-extras');
  extras.hidden = true; // a reply's reasoning and tool calls, once it has some
  const body = el('div', 'message-body');
  const note = el('p', 'message-note');
  const footer = messageFooter(message);
  article.append(extras, body, note, footer);
  views.set(message, { article, extras, body, note, footer });
  paint(message);
  return article;
}

/**
 * Shows a message's current text and status in its elements.
 * @param {ViewMessage} message
 */
export function paint(message) {
  const view = views.get(message);
  if (!view) return; // not on screen (the user went to another conversation)
  if (message.role === 'user') view.body.textContent = message.content;
  else {
    paintExtras(message, view.extras);
    view.body.replaceChildren(renderMarkdown(message.content));
    decorateCodeBlocks(view.body);
  }
  const streaming = message.status === 'streaming';
  view.article.classList.toggle('streaming', streaming);
  view.article.classList.toggle('failed', message.status === 'failed');
  view.article.setAttribute('aria-busy', String(streaming));
  const status = streaming ? null : statusNote(message);
  const note = streaming ? (message.content || message.reasoning ? '' : 'Thinking…') : (status?.text ?? '');
  const badge = el('span', `badge badge-${message.status}`, status?.badge);
  badge.setAttribute('aria-hidden', 'true');
  view.note.replaceChildren(...(status ? [badge, ' '] : []), note);
  view.note.hidden = !note;
  paintFooter(message, view.footer);
}

/** @type {Set<ViewMessage>} */
let paintQueued = new Set();
/**
 * Repaints a growing reply at most once per frame.
 * @param {ViewMessage} message
 */
export function schedulePaint(message) {
  if (paintQueued.size === 0) {
    requestAnimationFrame(() => {
      const queued = paintQueued;
      paintQueued = new Set();
      for (const m of queued) paint(m);
      scrollToEnd(false);
    });
  }
  paintQueued.add(message);
}

/** The regenerate button after the last message, when there is something to answer again. */
export function renderActions() {
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

/**
 * Tells screen readers that a reply has finished, with its text (the list itself is not live).
 * @param {ViewMessage} reply
 */
export function announce(reply) {
  const text =
    reply.status === 'cancelled' ? 'Reply stopped.' : `Reply${reply.status === 'truncated' ? ' (cut short)' : ''}: ${views.get(reply)?.body.textContent ?? reply.content}`;
  $('announcer').textContent = text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** @param {boolean} force scroll even when the reader has scrolled up */
export function scrollToEnd(force) {
  const box = $('messages');
  const nearEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  if (force || nearEnd) box.scrollTop = box.scrollHeight;
}
