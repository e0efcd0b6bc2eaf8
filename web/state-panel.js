// @ts-check
// The session state of the conversation shown, as JSON to read and replace
// (GET and PUT /api/conversations/:id/state). Text that is not JSON is refused here; anything
// else the API refuses (not an object, over 64 KB) is shown with the API's own message.
import { ApiError } from './api.js';
import { $ } from './dom.js';
import { describe } from './errors.js';
import { closeModal, openModal, restoreFocusOnClose } from './modal.js';
import { api, state } from './state.js';

/** @type {string | null} the conversation whose state the dialog shows */
let shownFor = null;

export function wireStatePanel() {
  $('open-state').addEventListener('click', () => void openState());
  $('state-cancel').addEventListener('click', () => closeModal('state-dialog'));
  $('state-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void saveState();
  });
  restoreFocusOnClose('state-dialog');
}

async function openState() {
  const id = state.current?.id;
  if (!id) return;
  const input = $('state-input', HTMLTextAreaElement);
  const save = $('state-save', HTMLButtonElement);
  shownFor = id;
  input.value = '';
  input.readOnly = true;
  save.disabled = true;
  setError('Loading…');
  openModal('state-dialog', input);
  try {
    /** @type {Record<string, unknown>} */
    const current = await api.json('GET', `api/conversations/${id}/state`);
    if (shownFor !== id) return;
    input.value = JSON.stringify(current, null, 2);
    input.readOnly = false;
    save.disabled = false;
    setError('');
  } catch (error) {
    setError(describe(error).text);
  }
}

async function saveState() {
  const id = shownFor;
  if (!id) return;
  const input = $('state-input', HTMLTextAreaElement);
  let value;
  try {
    value = JSON.parse(input.value);
  } catch (error) {
    setError(`This is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    input.focus();
    return;
  }
  const save = $('state-save', HTMLButtonElement);
  save.disabled = true;
  try {
    /** @type {Record<string, unknown>} */
    const saved = await api.json('PUT', `api/conversations/${id}/state`, value);
    input.value = JSON.stringify(saved, null, 2);
    setError('');
    $('announcer').textContent = 'The session state is saved.';
    closeModal('state-dialog');
  } catch (error) {
    setError(
      error instanceof ApiError && error.status === 400
        ? `The server refused it: ${error.message}`
        : describe(error).text,
    );
    input.focus();
  } finally {
    save.disabled = false;
  }
}

/** @param {string} text */
function setError(text) {
  $('state-error').textContent = text;
  const input = $('state-input');
  if (text && text !== 'Loading…') input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}
