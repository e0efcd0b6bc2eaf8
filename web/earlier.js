// @ts-check
// Older messages: "Show earlier messages", and loading back to the message a search found.
import { $, el } from './dom.js';
import { hideError, showError } from './errors.js';
import { views } from './message-elements.js';
import { messageView } from './message-view.js';
import { api, EARLIER_PAGE_SIZE, MAX_PAGE_SIZE, SEARCH_REACH, state, toViewMessage } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').OpenConversation} OpenConversation */
/** @typedef {import('./state.js').Highlight} Highlight */

/** The button, while it is on the page. */
const earlierButton = () => /** @type {HTMLButtonElement | null} */ (document.getElementById('show-earlier'));

/**
 * "Show earlier messages": prepends the page of messages older than those shown, keeping the
 * reader on the message they were reading.
 */
async function showEarlier() {
  const conversation = state.current;
  if (!conversation?.id || conversation.nextBefore == null || conversation.loadingEarlier) return;
  hideError();
  const hadFocus = document.activeElement === earlierButton();
  let articles;
  try {
    articles = await loadEarlier(conversation, conversation.nextBefore - EARLIER_PAGE_SIZE); // one page
  } catch (error) {
    if (state.current !== conversation) return; // not the conversation on screen any more
    if (hadFocus) earlierButton()?.focus(); // a disabled button drops the focus: give it back
    showError(error);
    return;
  }
  if (!articles) return;
  $('announcer').textContent =
    `${shownText(articles.length)}${conversation.nextBefore == null ? ', from the first one' : ''}.`;
  if (!hadFocus) return;
  const button = earlierButton();
  if (button) {
    button.focus({ preventScroll: true });
  } else if (articles.length) {
    // The button is gone: continue from the newest of the messages just shown, which sits right
    // above where the reader was.
    const next = /** @type {HTMLElement} */ (articles.at(-1));
    next.tabIndex = -1;
    next.focus({ preventScroll: true });
  }
}

/** @param {number} n */
const shownText = (n) => `${n} earlier ${n === 1 ? 'message' : 'messages'} shown`;

/**
 * Loads the older messages back to seq `fromSeq`, in pages of at most 200 from `nextBefore`, so
 * the list never has a gap. Asking for `nextBefore - fromSeq` messages reaches `fromSeq` exactly
 * (seqs are unique per conversation; other threads in between only take it further back). The
 * button shows "Loading…" meanwhile, so nothing else asks for a page.
 *
 * Pages arriving after another conversation (or this one, reopened) was shown are dropped: the
 * answer is then null, else the new messages' elements, oldest first. A failed request throws;
 * the pages before it stay, and `nextBefore` stays right.
 * @param {OpenConversation} conversation
 * @param {number} fromSeq
 * @returns {Promise<HTMLElement[] | null>}
 */
async function loadEarlier(conversation, fromSeq) {
  conversation.loadingEarlier = true;
  paintEarlier(earlierButton(), conversation);
  /** @type {HTMLElement[]} */
  const shown = [];
  try {
    while (conversation.nextBefore != null && conversation.nextBefore > fromSeq) {
      const limit = Math.min(MAX_PAGE_SIZE, conversation.nextBefore - fromSeq);
      const params = new URLSearchParams({
        before: String(conversation.nextBefore),
        limit: String(limit),
        thread: conversation.thread ?? 'main',
      });
      /** @type {Schemas['MessagesPageDto']} */
      const page = await api.json('GET', `api/conversations/${conversation.id}/messages?${params}`);
      if (state.current !== conversation) return null;
      shown.unshift(...prependEarlier(conversation, page));
    }
  } finally {
    conversation.loadingEarlier = false;
    if (state.current === conversation) paintEarlier(earlierButton(), conversation);
  }
  return shown;
}

/**
 * Puts a page of older messages above those shown; answers their elements.
 * @param {OpenConversation} conversation
 * @param {Schemas['MessagesPageDto']} page
 */
function prependEarlier(conversation, page) {
  const earlier = page.items.map(toViewMessage);
  conversation.messages.unshift(...earlier);
  conversation.nextBefore = page.nextBefore;
  // Everything below the new messages stays as it is: keeping the distance to the end of the
  // list keeps the reader's message where it was on screen (no jump to the bottom or the top).
  const box = $('messages');
  const fromEnd = box.scrollHeight - box.scrollTop;
  const articles = earlier.map(messageView);
  const button = earlierButton();
  if (button) button.after(...articles);
  else box.prepend(...articles);
  paintEarlier(button, conversation);
  box.scrollTop = box.scrollHeight - fromEnd;
  return articles;
}

/**
 * The button above the oldest message shown, while older messages exist.
 * @param {OpenConversation} conversation
 */
export function earlierView(conversation) {
  const button = el('button', 'button subtle show-earlier');
  button.type = 'button';
  button.id = 'show-earlier';
  button.addEventListener('click', () => void showEarlier());
  paintEarlier(button, conversation);
  return button;
}

/**
 * Shows the button as the conversation's state says: busy while a page loads, gone after the first message.
 * @param {HTMLButtonElement | null} button
 * @param {OpenConversation} conversation
 */
function paintEarlier(button, conversation) {
  if (!button) return;
  if (conversation.nextBefore == null) {
    button.remove();
    return;
  }
  button.disabled = Boolean(conversation.loadingEarlier); // one request at a time
  button.textContent = conversation.loadingEarlier ? 'Loading earlier messages…' : 'Show earlier messages';
}

/**
 * Brings the message that a search found into view and marks it. One older than those shown is
 * loaded first, with every message in between, so the list has no gap and "Show earlier
 * messages" goes on from there. Opening a result opens its thread (navigation.js); one more than
 * SEARCH_REACH messages back is reported.
 * @param {OpenConversation} conversation
 * @param {Highlight | null} target
 */
export async function showHighlight(conversation, target) {
  if (!target) return;
  if (target.thread && target.thread !== (conversation.thread ?? 'main')) {
    showError(new Error(`The message this search found is in the thread "${target.thread}", not the one shown.`)); // opened with its thread: only if the user switched meanwhile
    return;
  }
  const found = () => conversation.messages.some((m) => m.id === target.id);
  if (!found() && conversation.nextBefore != null) {
    if (conversation.nextBefore - target.seq > SEARCH_REACH) {
      showError(
        new Error(
          `The message this search found is too far back to show: more than ${SEARCH_REACH.toLocaleString('en')} messages before the newest ones. “Show earlier messages” goes back a page at a time.`,
        ),
      );
      return;
    }
    let articles;
    try {
      articles = await loadEarlier(conversation, target.seq);
    } catch (error) {
      if (state.current === conversation) showError(error);
      return;
    }
    if (!articles) return; // another conversation is shown now
    $('announcer').textContent = `${shownText(articles.length)}, back to the message found.`;
  }
  for (const [message, view] of views) {
    if (message.id !== target.id) continue;
    view.article.classList.add('highlight');
    view.article.scrollIntoView({ block: 'center' });
  }
}
