// @ts-check
// The API key: whether one is needed (single-user mode answers without one), asking for it,
// keeping it in localStorage, and saying how the page is signed in.
import { ApiError } from './api.js';
import { fetchAgents, setAgents } from './agents.js';
import { $ } from './dom.js';
import { describe, showError } from './errors.js';
import { api, state, writeStoredKey } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

/**
 * True once an API call (the agents, needed anyway) succeeds; asks for a key while the server answers 401.
 * @returns {Promise<boolean>}
 */
export async function connect() {
  for (;;) {
    try {
      setAgents(await fetchAgents());
      state.singleUser = !state.key;
      renderAuthStatus();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        const hadKey = Boolean(state.key);
        storeKey(null);
        await askForKey(hadKey ? 'The saved key was refused. Enter another one.' : '');
        continue;
      }
      showError(error);
      $('list-status').textContent = 'Not connected.';
      return false;
    }
  }
}

/**
 * Shows the key dialog until the server accepts a key.
 * @param {string} message
 * @returns {Promise<void>}
 */
export function askForKey(message) {
  const dialog = $('key-dialog', HTMLDialogElement);
  const input = $('key-input', HTMLInputElement);
  const form = $('key-form', HTMLFormElement);
  $('key-error').textContent = message;
  input.value = '';
  return new Promise((resolve) => {
    /** @param {SubmitEvent} event */
    const submit = async (event) => {
      event.preventDefault();
      const key = input.value.trim();
      if (!key) return;
      $('key-error').textContent = 'Checking…';
      try {
        await api.json('GET', 'api/agents', undefined, { key });
      } catch (error) {
        $('key-error').textContent = error instanceof ApiError && error.status === 401 ? 'This key was refused.' : describe(error).text;
        input.select();
        return;
      }
      storeKey(key);
      form.removeEventListener('submit', submit);
      dialog.close();
      resolve();
    };
    form.addEventListener('submit', submit);
    dialog.showModal();
  });
}

/** @param {string | null} key */
export function storeKey(key) {
  state.key = key;
  writeStoredKey(key);
  renderAuthStatus();
}

function renderAuthStatus() {
  $('auth-status').textContent = state.key ? 'Signed in with an API key.' : state.singleUser ? 'Single-user mode: no API key needed.' : '';
  $('forget-key').hidden = !state.key;
}
