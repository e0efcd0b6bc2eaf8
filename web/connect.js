// @ts-check
// The consent page of the OAuth server behind /mcp (docs/mcp.md): an MCP host sends the user
// here with ?request=<id>; the user allows or denies it with their API key. It also lists the
// apps connected and disconnects them. Every call carries the key in the Authorization header,
// never a cookie, so no other site can approve in the user's name.

/** Where the chat page keeps the key (web/state.js): the page and this one share the sign-in. */
const KEY_STORAGE = 'chat-memory.apiKey';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @returns {string | null} */
function storedKey() {
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

/** @type {string | null} */
let key = storedKey();

class Unauthorized extends Error {}

/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<any>}
 */
async function call(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (res.status === 401) throw new Unauthorized();
  if (res.status === 204) return null;
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(typeof body.message === 'string' ? body.message : `The server answered ${res.status}`);
  return body;
}

/** @param {unknown} error */
function show(error) {
  if (error instanceof Unauthorized) {
    $('key-form').hidden = false;
    return;
  }
  const box = $('connect-error');
  box.textContent = error instanceof Error ? error.message : String(error);
  box.hidden = false;
}

const requestId = new URLSearchParams(location.search).get('request');

async function showRequest() {
  if (!requestId) return;
  const request = await call(`/oauth/requests/${encodeURIComponent(requestId)}`);
  // The client's name is its own claim: shown as text, beside where the browser goes next.
  $('client-name').textContent = request.clientName;
  $('redirect-origin').textContent = new URL(request.redirectUri).origin;
  $('write-choice').hidden = !request.scopes.includes('history:write');
  $('consent').hidden = false;
}

/** @param {'approve' | 'deny'} decision */
async function decide(decision) {
  if (!requestId) return;
  const allowWrite = /** @type {HTMLInputElement} */ ($('allow-write')).checked;
  const body = decision === 'approve' ? { write: allowWrite } : {};
  const answer = await call(`/oauth/requests/${encodeURIComponent(requestId)}/${decision}`, { method: 'POST', body });
  $('connect-status').textContent =
    decision === 'approve' ? 'Allowed. Returning to the app…' : 'Denied. Returning to the app…';
  location.assign(answer.redirectTo);
}

async function showConnections() {
  const { items } = await call('/oauth/connections');
  const list = $('connections');
  list.replaceChildren();
  $('no-connections').hidden = items.length > 0;
  for (const item of items) {
    const row = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = `${item.clientName} (${item.scopes.includes('history:write') ? 'read and write' : 'read only'}, since ${new Date(item.connectedAt).toLocaleString()}) `;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button subtle';
    button.textContent = 'Disconnect';
    button.addEventListener('click', () => {
      call(`/oauth/connections/${encodeURIComponent(item.clientId)}`, { method: 'DELETE' }).then(showConnections, show);
    });
    row.append(name, button);
    list.append(row);
  }
}

async function load() {
  $('key-form').hidden = true;
  await showRequest();
  await showConnections();
}

$('approve').addEventListener('click', () => void decide('approve').catch(show));
$('deny').addEventListener('click', () => void decide('deny').catch(show));
$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  key = /** @type {HTMLInputElement} */ ($('key-input')).value.trim() || null;
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
  } catch {
    // storage disabled: the key lasts as long as the page
  }
  load().catch(show);
});
load().catch(show);
