// @ts-check
// The account dialog: token usage per day and model, of one agent or all (GET /api/usage), everything downloaded as
// one JSON file (GET /api/me/export), and everything erased after a typed confirmation
// (DELETE /api/me/data).
import { ApiError, NetworkError } from './api.js';
import { agentLabel, loadAgents } from './agents.js';
import { $, el } from './dom.js';
import { describe } from './errors.js';
import { refreshList } from './list.js';
import { closeModal, openModal, restoreFocusOnClose } from './modal.js';
import { navigate } from './navigation.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

const ERASE_PHRASE = 'erase everything';
const DAY_MS = 86_400_000;
const number = (/** @type {number} */ n) => n.toLocaleString('en');
const isoDay = (/** @type {Date} */ d) => d.toISOString().slice(0, 10);

export function wireAccount() {
  $('open-account').addEventListener('click', () => void openAccount());
  $('account-close').addEventListener('click', () => closeModal('account-dialog'));
  $('usage-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void loadUsage();
  });
  $('account-export').addEventListener('click', () => void exportAll());
  const confirm = $('erase-confirm', HTMLInputElement);
  confirm.addEventListener('input', () => {
    $('erase-ok', HTMLButtonElement).disabled = confirm.value.trim().toLowerCase() !== ERASE_PHRASE;
  });
  $('erase-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void erase();
  });
  restoreFocusOnClose('account-dialog');
}

async function openAccount() {
  const today = new Date();
  $('usage-to', HTMLInputElement).value = isoDay(today);
  $('usage-from', HTMLInputElement).value = isoDay(new Date(today.getTime() - 29 * DAY_MS));
  $('erase-confirm', HTMLInputElement).value = '';
  $('erase-ok', HTMLButtonElement).disabled = true;
  fillAgentFilter();
  for (const id of ['erase-status', 'export-status', 'account-error']) $(id).textContent = '';
  openModal('account-dialog', $('usage-from'));
  await loadUsage();
}

/** The agent filter: all, the conversations without an agent ("none", as the API names them), or one agent. */
function fillAgentFilter() {
  const select = $('usage-agent', HTMLSelectElement);
  const chosen = select.value;
  const options = [new Option('All agents', ''), new Option('No agent', 'none')];
  for (const agent of state.agents.values()) options.push(new Option(agentLabel(agent), agent.id));
  select.replaceChildren(...options);
  select.value = options.some((option) => option.value === chosen) ? chosen : '';
}

async function loadUsage() {
  const from = $('usage-from', HTMLInputElement).value;
  const to = $('usage-to', HTMLInputElement).value;
  const agent = $('usage-agent', HTMLSelectElement);
  const params = new URLSearchParams();
  if (from) params.set('from', from);
  if (agent.value) params.set('agentId', agent.value);
  if (to) params.set('to', isoDay(new Date(Date.parse(to) + DAY_MS))); // the API's end is exclusive
  $('usage-totals').textContent = 'Loading…';
  $('account-error').textContent = '';
  try {
    /** @type {Schemas['UsageReportDto']} */
    const usage = await api.json('GET', `api/usage?${params}`);
    const { totals } = usage;
    $('usage-totals').textContent = totals.replies
      ? `${number(totals.promptTokens)} prompt and ${number(totals.completionTokens)} completion tokens in ${number(totals.replies)} repl${totals.replies === 1 ? 'y' : 'ies'}.`
      : 'No replies in this period.';
    $('usage-tables').replaceChildren(
      ...(totals.replies
        ? [
            table(
              'Per day (UTC)',
              'Day',
              usage.byDay.map((row) => [row.day, row]),
            ),
            table(
              'Per model',
              'Model',
              usage.byModel.map((row) => [row.model, row]),
            ),
          ]
        : []),
    );
  } catch (error) {
    $('usage-totals').textContent = '';
    $('usage-tables').replaceChildren();
    if (error instanceof ApiError && error.body.code === 'agent_not_found') {
      // Deleted since the picker was filled (in another tab, say): offer the agents that are left.
      $('account-error').textContent =
        `The agent “${agent.selectedOptions[0]?.text}” no longer exists: choose another.`;
      await loadAgents();
      fillAgentFilter();
    } else {
      $('account-error').textContent = describe(error).text;
    }
  }
}

/**
 * @param {string} caption
 * @param {string} first the first column's heading
 * @param {Array<[string, Schemas['UsageRowDto']]>} rows
 */
function table(caption, first, rows) {
  const node = el('table', 'usage-table');
  node.append(el('caption', '', caption));
  const head = el('tr');
  for (const [i, text] of [first, 'Prompt tokens', 'Completion tokens', 'Replies'].entries()) {
    const th = el('th', i ? 'number' : '', text);
    th.scope = 'col';
    head.append(th);
  }
  node.createTHead().append(head);
  const body = node.createTBody();
  for (const [name, row] of rows) {
    const tr = el('tr');
    const th = el('th', '', name);
    th.scope = 'row';
    tr.append(th, ...[row.promptTokens, row.completionTokens, row.replies].map((n) => el('td', 'number', number(n))));
    body.append(tr);
  }
  return node;
}

/** Downloads GET /api/me/export: fetched with the key (a plain link could not send it), saved under the server's file name. */
async function exportAll() {
  const status = $('export-status');
  status.textContent = 'Preparing the download…';
  /** @type {Record<string, string>} */
  const headers = state.key ? { Authorization: `Bearer ${state.key}` } : {};
  try {
    let response;
    try {
      response = await fetch('api/me/export', { headers });
    } catch {
      throw new NetworkError();
    }
    if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
    const blob = await response.blob();
    const name =
      /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ??
      `chat-memory-${isoDay(new Date())}.json`;
    const url = URL.createObjectURL(blob);
    const link = el('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = `Downloaded ${name}.`;
  } catch (error) {
    status.textContent = '';
    $('account-error').textContent = describe(error).text;
  }
}

async function erase() {
  const confirm = $('erase-confirm', HTMLInputElement);
  if (confirm.value.trim().toLowerCase() !== ERASE_PHRASE) return;
  const button = $('erase-ok', HTMLButtonElement);
  button.disabled = true;
  $('erase-status').textContent = 'Erasing…';
  try {
    /** @type {Schemas['ErasedDataDto']} */
    const erased = await api.json('DELETE', 'api/me/data');
    const plural = (/** @type {number} */ n, /** @type {string} */ word) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;
    const memories = `${number(erased.memories)} ${erased.memories === 1 ? 'memory' : 'memories'}`;
    $('erase-status').textContent =
      `Erased ${plural(erased.conversations, 'conversation')}, ${plural(erased.messages, 'message')}, ${plural(erased.agents, 'agent')} and ${memories}.`;
    confirm.value = '';
    state.newAgentId = '';
    state.list.items = [];
    navigate('#/');
    await Promise.all([loadAgents(), refreshList()]);
    fillAgentFilter();
    await loadUsage();
  } catch (error) {
    $('erase-status').textContent = '';
    $('account-error').textContent = describe(error).text;
    button.disabled = false;
  }
}
