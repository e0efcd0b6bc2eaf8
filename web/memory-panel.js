// @ts-check
// The memory panel: the caller's long-term memories (docs/memory.md), to list, search, add,
// edit, pin and delete (GET/POST /api/memories, PATCH and DELETE /api/memories/:id).
import { $, el } from './dom.js';
import { describe } from './errors.js';
import { closeModal, openModal, restoreFocusOnClose } from './modal.js';
import { api } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {Schemas['MemoryDto']} Memory */

/** The search the list shows (empty: the newest). */
let query = '';

export function wireMemoryPanel() {
  $('open-memory').addEventListener('click', () => {
    openModal('memory-dialog', $('memory-search', HTMLInputElement));
    void load();
  });
  $('memory-close').addEventListener('click', () => closeModal('memory-dialog'));
  $('memory-search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    query = $('memory-search', HTMLInputElement).value.trim();
    void load();
  });
  $('memory-add-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void add();
  });
  restoreFocusOnClose('memory-dialog');
}

async function load() {
  setStatus('Loading…');
  try {
    const path = query ? `api/memories?limit=100&q=${encodeURIComponent(query)}` : 'api/memories?limit=100';
    /** @type {Schemas['MemoryListDto']} */
    const page = await api.json('GET', path);
    render(page.items);
    setStatus(
      page.items.length
        ? ''
        : query
          ? 'No memory holds these words.'
          : 'Nothing remembered yet. Write below what every conversation should know about you (pin it to send it on every turn).',
    );
  } catch (error) {
    setStatus(describe(error).text);
  }
}

async function add() {
  const input = $('memory-new', HTMLTextAreaElement);
  const text = input.value.trim();
  if (!text) return input.focus();
  const pinned = $('memory-new-pinned', HTMLInputElement);
  try {
    await api.json('POST', 'api/memories', { text, pinned: pinned.checked });
    // The form starts over: the next memory is pinned only when asked again.
    input.value = '';
    pinned.checked = false;
    $('announcer').textContent = 'Remembered.';
    await load();
  } catch (error) {
    setStatus(describe(error).text);
  }
}

/** @param {Memory[]} memories */
function render(memories) {
  const list = $('memory-list');
  list.replaceChildren(...memories.map(item));
}

/**
 * One memory: its text (editable in place), Pin/Unpin, Edit/Save and Delete.
 * @param {Memory} memory
 */
function item(memory) {
  const li = el('li', 'memory-item');
  li.dataset.id = memory.id;
  const text = el('p', 'memory-text', memory.text);
  const pin = el('button', 'button subtle', memory.pinned ? 'Unpin' : 'Pin');
  pin.type = 'button';
  pin.setAttribute('aria-pressed', String(memory.pinned));
  pin.setAttribute('aria-label', `${memory.pinned ? 'Unpin' : 'Pin'}: ${memory.text}`);
  pin.addEventListener(
    'click',
    () =>
      void change(memory.id, { pinned: !memory.pinned }, memory.pinned ? 'Unpinned.' : 'Pinned: read on every turn.'),
  );
  const edit = el('button', 'button subtle', 'Edit');
  edit.type = 'button';
  edit.setAttribute('aria-label', `Edit: ${memory.text}`);
  edit.addEventListener('click', () => {
    const area = el('textarea', 'memory-edit');
    area.value = memory.text;
    area.maxLength = 1000;
    area.rows = 2;
    area.setAttribute('aria-label', 'Memory text');
    const save = el('button', 'button primary', 'Save');
    save.type = 'button';
    save.addEventListener('click', () => void change(memory.id, { text: area.value }, 'Memory saved.'));
    text.replaceWith(area);
    edit.replaceWith(save);
    area.focus();
  });
  const remove = el('button', 'button danger-outline', 'Delete');
  remove.type = 'button';
  remove.setAttribute('aria-label', `Delete: ${memory.text}`);
  remove.addEventListener('click', async () => {
    try {
      await api.json('DELETE', `api/memories/${memory.id}`);
      $('announcer').textContent = 'Forgotten.';
      await load();
    } catch (error) {
      setStatus(describe(error).text);
    }
  });
  const badge = memory.pinned ? [el('span', 'memory-badge', 'Pinned')] : [];
  const tools = el('div', 'memory-tools');
  tools.append(pin, edit, remove);
  li.append(...badge, text, tools);
  return li;
}

/**
 * @param {string} id
 * @param {Schemas['UpdateMemoryDto']} changes
 * @param {string} said
 */
async function change(id, changes, said) {
  try {
    await api.json('PATCH', `api/memories/${id}`, changes);
    $('announcer').textContent = said;
    await load();
  } catch (error) {
    setStatus(describe(error).text);
  }
}

/** @param {string} text */
function setStatus(text) {
  $('memory-status').textContent = text;
}
