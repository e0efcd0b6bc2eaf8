// @ts-check
// Small helpers for the page's elements.

/**
 * The element with this id, checked to be a `type` (HTMLElement unless told): a page out of
 * step with its script fails here, by name, rather than later.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T }} [type]
 * @returns {T}
 */
export function $(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof (type ?? HTMLElement)))
    throw new Error(`The page has no #${id}${type ? ` of type ${type.name}` : ''}`);
  return /** @type {T} */ (node);
}

/**
 * A new element with a class and a text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A date as the lists show it: the time for today, else the day.
 * @param {string} iso
 */
export function listDate(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : date.toLocaleDateString();
}
