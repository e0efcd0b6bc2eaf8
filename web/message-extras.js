// @ts-check
// What a reply carries besides its text, each collapsed above it: a reasoning model's thinking
// ("Thought for 12 s") and the tools the model called, with their arguments and results. Both
// are shown as plain text: they come from the model, and none of it is Markdown to render.
import { el } from './dom.js';

/** @typedef {import('./state.js').ViewMessage} ViewMessage */

/**
 * Shows the message's thinking and tool calls in `box`. The `details` elements are kept between
 * paints (a reply repaints on every delta), so one the reader opened stays open.
 * @param {ViewMessage} message
 * @param {HTMLElement} box
 */
export function paintExtras(message, box) {
  const reasoning = message.reasoning ?? '';
  const calls = message.toolCalls ?? [];
  /** @type {HTMLDetailsElement | null} */
  let thought = box.querySelector(':scope > details.reasoning');
  if (reasoning) {
    if (!thought) {
      thought = collapsed('reasoning');
      thought.append(el('pre', 'reasoning-text'));
      box.prepend(thought);
    }
    const thinking = message.status === 'streaming' && !message.content;
    setSummary(thought, thinking ? 'Thinking…' : thoughtFor(message.reasoningMs));
    const text = /** @type {HTMLElement} */ (thought.querySelector('.reasoning-text'));
    if (text.textContent !== reasoning) text.textContent = reasoning;
  } else thought?.remove();

  /** @type {HTMLDetailsElement | null} */
  let tools = box.querySelector(':scope > details.tool-calls');
  if (calls.length && tools?.dataset.count !== String(calls.length)) {
    tools?.remove();
    tools = collapsed('tool-calls');
    tools.dataset.count = String(calls.length);
    const names = [...new Set(calls.map((c) => c.name))].join(', ');
    setSummary(tools, calls.length === 1 ? `Used a tool: ${names}` : `Used ${calls.length} tools: ${names}`);
    for (const call of calls) {
      const item = el('div', 'tool-call');
      item.append(
        el('p', 'tool-call-name', call.name),
        el('pre', 'tool-call-arguments', readable(call.arguments)),
        el('p', 'tool-call-label', 'Result'),
        el('pre', 'tool-call-result', readable(call.result)),
      );
      tools.append(item);
    }
    box.append(tools);
  } else if (!calls.length) tools?.remove();
  box.hidden = !reasoning && !calls.length;
}

/**
 * @param {string} className
 * @returns {HTMLDetailsElement}
 */
function collapsed(className) {
  const details = el('details', className);
  details.append(el('summary'));
  return details;
}

/**
 * @param {HTMLDetailsElement} details
 * @param {string} text
 */
function setSummary(details, text) {
  const summary = /** @type {HTMLElement} */ (details.querySelector(':scope > summary'));
  if (summary.textContent !== text) summary.textContent = text;
}

/**
 * "Thought for 12 s"; "Reasoning" when the time is unknown (a reply that was not streamed).
 * @param {number | null | undefined} ms
 */
function thoughtFor(ms) {
  return ms == null ? 'Reasoning' : `Thought for ${Math.max(1, Math.round(ms / 1000))} s`;
}

/**
 * JSON indented for reading; any other text as it is.
 * @param {string} text
 */
function readable(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
