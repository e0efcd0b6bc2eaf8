// @ts-check
// The API key: whether one is needed (single-user mode answers without one), asking for it,
// keeping it in localStorage, and saying how the page is signed in.
import { ApiError } from './api.js';
import { fetchAgents, setAgents } from './agents.js';
import { $ } from './dom.js';
import { describe, showError } from './errors.js';
import { api, state, writeStoredKey } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').Agent} Agent */

/**
 * True once the agents (needed anyway) are loaded. Whether a key is needed is asked first
 * (GET /api/settings needs none), so that no route needing a key is called before one is entered;
 * the key entered is checked by loading the agents with it.
 * @returns {Promise<boolean>}
 */
export async function connect() {
  try {
    /** @type {Schemas['ClientSettingsDto']} */
    const settings = await api.json('GET', 'api/settings');
    state.singleUser = !settings.keyRequired;
    state.maxMessageChars = settings.maxMessageChars;
    let message = '';
    for (;;) {
      if (!state.key && !state.singleUser) {
        setAgents(await askForKey(message));
        break;
      }
      try {
        setAgents(await fetchAgents());
        break;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        storeKey(null);
        message = 'The saved key was refused. Enter another one.';
      }
    }
    renderAuthStatus();
    return true;
  } catch (error) {
    showError(error);
    $('list-status').textContent = 'Not connected.';
    return false;
  }
}

/**
 * Shows the key dialog until the server accepts a key; answers the agents read with it.
 * @param {string} message
 * @returns {Promise<Agent[]>}
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
      /** @type {Agent[]} */
      let agents;
      try {
        agents = await fetchAgents(key);
      } catch (error) {
        $('key-error').textContent =
          error instanceof ApiError && error.status === 401 ? 'This key was refused.' : describe(error).text;
        input.select();
        return;
      }
      storeKey(key);
      form.removeEventListener('submit', submit);
      dialog.close();
      resolve(agents);
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
  $('auth-status').textContent = state.key
    ? 'Signed in with an API key.'
    : state.singleUser
      ? 'Single-user mode: no API key needed.'
      : '';
  $('forget-key').hidden = !state.key;
}
