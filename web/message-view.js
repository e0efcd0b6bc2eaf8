// @ts-check
// One message on screen: its article (text, or a reply as safe Markdown with its reasoning and
// tool calls), its status note and its footer, painted again as it changes.
import { el } from './dom.js';
import { paintExtras } from './message-extras.js';
import { scrollToEnd, views } from './message-elements.js';
import { decorateCodeBlocks, messageFooter, paintFooter, statusNote } from './message-tools.js';
import { onRendererLoaded } from './late-renderers.js';
import { drawLate, renderMarkdown } from './render.js';

/** @typedef {import('./state.js').ViewMessage} ViewMessage */

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
function paint(message) {
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

/**
 * The `message` topic: messages that changed are painted again; a reply still streaming at
 * most once per frame (its text grows with every piece that arrives).
 * @param {ViewMessage[]} messages
 */
export function repaint(messages) {
  for (const message of messages) {
    if (message.status === 'streaming') schedulePaint(message);
    else paint(message);
  }
}

// Math or code shown plain while its renderer was loading is drawn now, in each message shown.
onRendererLoaded(() => {
  for (const view of views.values()) drawLate(view.body);
});

/** @type {Set<ViewMessage>} */
let paintQueued = new Set();
/** @param {ViewMessage} message */
function schedulePaint(message) {
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
