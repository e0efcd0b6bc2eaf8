// @ts-check
// The read-only page of a share link, /s/<token>: the snapshot's messages, Markdown made safe
// as on the chat page, and "Continue this conversation", which copies the share into a
// conversation of the reader's own (with the key the chat page keeps, none in single-user mode).
// Paths are relative to /s/<token>, so the page also works under a path prefix.
import { ApiError, createApi } from './api.js';
import { $, el } from './dom.js';
import { onRendererLoaded } from './late-renderers.js';
import { drawLate, renderMarkdown } from './render.js';
import { state } from './state.js';

/** @typedef {import('./api.js').Schemas} Schemas */

const token = decodeURIComponent(location.pathname.split('/').pop() ?? '');
const api = createApi(() => state.key);

async function main() {
  /** @type {Schemas['SharedConversationDto']} */
  let shared;
  try {
    shared = await api.json('GET', `../api/shared/${encodeURIComponent(token)}`);
  } catch (error) {
    $('shared-title').textContent = 'Shared conversation';
    const gone = error instanceof ApiError && error.status === 404;
    const busy = error instanceof ApiError && error.status === 429;
    showError(
      gone
        ? 'This link does not work: it was revoked, it expired, or it never existed.'
        : busy
          ? `Too many reads from your address; try again in ${error.retryAfter ?? 60} seconds.`
          : 'The conversation could not be loaded. Try again later.',
    );
    return;
  }
  document.title = `${shared.title} · shared · chat-memory`;
  $('shared-title').textContent = shared.title;
  $('shared-messages').replaceChildren(...shared.messages.map(messageView));
  onRendererLoaded(() => drawLate($('shared-messages'))); // math or code shown plain while its renderer was loading
  const button = $('continue', HTMLButtonElement);
  button.hidden = false;
  button.addEventListener('click', () => void continueIt(button));
}

/** @param {Schemas['SharedMessageDto']} message */
function messageView(message) {
  const article = el('article', `message ${message.role === 'user' ? 'user' : 'assistant'}`);
  article.append(el('h2', 'visually-hidden', message.role === 'user' ? 'They said:' : 'The assistant said:'));
  const body = el('div', 'message-body');
  if (message.role === 'user') body.textContent = message.content;
  else body.replaceChildren(renderMarkdown(message.content));
  const when = new Date(message.createdAt);
  const meta = el('span', 'shared-meta', [message.model, when.toLocaleString()].filter(Boolean).join(' · '));
  article.append(body, meta);
  return article;
}

/** Forks the share into a conversation of the reader's, then opens it in the chat page. @param {HTMLButtonElement} button */
async function continueIt(button) {
  const status = $('continue-status');
  button.disabled = true;
  status.textContent = 'Copying the conversation…';
  try {
    /** @type {Schemas['ConversationDetailDto']} */
    const conversation = await api.json('POST', `../api/shared/${encodeURIComponent(token)}/fork`);
    status.textContent = 'Copied. Opening it…';
    location.assign(`../#/c/${conversation.id}`);
  } catch (error) {
    button.disabled = false;
    if (error instanceof ApiError && error.status === 401) {
      // Signing in happens on the chat page, which comes back here once the key is accepted.
      status.textContent = 'Sign in with an API key first: opening the chat page…';
      location.assign(`../?${new URLSearchParams({ return: `s/${token}` })}`);
    } else if (error instanceof ApiError && error.status === 404) {
      status.textContent = 'This link no longer works: it was revoked or it expired.';
    } else {
      status.textContent = error instanceof Error ? `Could not copy it: ${error.message}` : 'Could not copy it.';
    }
  }
}

/** @param {string} text */
function showError(text) {
  const box = $('shared-error');
  box.textContent = text;
  box.hidden = false;
}

void main();
