// @ts-check
// The agents dialog: the caller's agents, each to start a chat with, edit or delete; the editor
// (every field of an agent, with the API's validation messages beside the fields); deleting an
// agent that has conversations asks whether to keep them (detached) or delete them too.
import { ApiError } from './api.js';
import { loadAgents } from './agents.js';
import { $, el } from './dom.js';
import { describe } from './errors.js';
import { refreshList } from './list.js';
import { closeModal, labelFieldMessage, openModal, restoreFocusOnClose, splitFieldMessages } from './modal.js';
import { navigate } from './navigation.js';
import { api, changed, state } from './state.js';

/** @typedef {import('./state.js').Agent} Agent */
/** @typedef {import('./state.js').Schemas} Schemas */

const TEXT_FIELDS = /** @type {const} */ (['name', 'emoji', 'description', 'systemPrompt', 'model']);
const NUMBER_FIELDS = /** @type {const} */ (['temperature', 'maxTokens', 'contextTokenBudget']);
const FIELDS = [...TEXT_FIELDS, ...NUMBER_FIELDS, 'tools'];
/** @type {Agent['tools']} */
const TOOLS = ['update_state', 'remember', 'forget'];

/** @type {Agent | null} the agent being edited; null: a new one */
let editing = null;

export function wireAgents() {
  $('open-agents').addEventListener('click', () => void openAgents());
  $('agents-close').addEventListener('click', () => closeModal('agents-dialog'));
  $('agent-new').addEventListener('click', () => openEditor(null));
  $('agent-cancel').addEventListener('click', () => closeModal('agent-editor'));
  $('agent-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });
  for (const id of ['agents-dialog', 'agent-editor']) restoreFocusOnClose(id);
}

async function openAgents() {
  openModal('agents-dialog', $('agent-new'));
  $('agents-status').textContent = 'Loading…';
  await loadAgents();
  renderAgentList();
}

function renderAgentList() {
  const agents = [...state.agents.values()];
  $('agents-status').textContent = agents.length ? '' : 'No agents yet: “New agent” makes one.';
  $('agent-list').replaceChildren(
    ...agents.map((agent) => {
      const item = el('li', 'agent-item');
      const label = agent.emoji ? `${agent.emoji} ${agent.name}` : agent.name;
      const text = el('div', 'agent-text');
      text.append(el('strong', 'agent-name', label));
      if (agent.description) text.append(el('span', 'agent-description', agent.description));
      const settings = [
        agent.model,
        agent.temperature != null ? `temperature ${agent.temperature}` : '',
        agent.tools.length ? `tools: ${agent.tools.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      if (settings) text.append(el('span', 'agent-settings', settings));
      const buttons = el('div', 'agent-buttons');
      buttons.append(
        button('Start a chat', `Start a chat with ${label}`, 'button primary small', () => startChat(agent)),
        button('Edit', `Edit ${label}`, 'button small', () => openEditor(agent)),
        button('Delete', `Delete ${label}`, 'button small danger-outline', () => void remove(agent)),
      );
      item.append(text, buttons);
      return item;
    }),
  );
}

/**
 * @param {string} text
 * @param {string} label
 * @param {string} className
 * @param {() => void} onClick
 */
function button(text, label, className, onClick) {
  const node = el('button', className, text);
  node.type = 'button';
  node.setAttribute('aria-label', label);
  node.addEventListener('click', onClick);
  return node;
}

/** @param {Agent} agent */
function startChat(agent) {
  state.newAgentId = agent.id;
  closeModal('agents-dialog', { restoreFocus: false }); // the new chat focuses the message box
  navigate('#/');
}

/** @param {string} field */
const input = (field) => /** @type {HTMLInputElement | HTMLTextAreaElement} */ ($(`agent-${field}`));
const toolBox = (/** @type {string} */ tool) => $(`agent-tool-${tool}`, HTMLInputElement);

/** @param {Agent | null} agent */
function openEditor(agent) {
  editing = agent;
  $('agent-editor-title').textContent = agent ? `Edit ${agent.name}` : 'New agent';
  for (const field of TEXT_FIELDS) input(field).value = agent?.[field] ?? '';
  for (const field of NUMBER_FIELDS) input(field).value = agent?.[field] != null ? String(agent[field]) : '';
  for (const tool of TOOLS) toolBox(tool).checked = Boolean(agent?.tools.includes(tool));
  showErrors(new Map(), []);
  openModal('agent-editor', input('name'));
}

/** The form as a body: empty fields are null (cleared), numbers sent as typed when they are not numbers (the API says why). */
function formBody() {
  /** @type {Record<string, unknown>} */
  const body = {};
  for (const field of TEXT_FIELDS) {
    const value = input(field).value;
    body[field] = field === 'name' ? value.trim() : value.trim() ? value : null;
  }
  for (const field of NUMBER_FIELDS) {
    const value = input(field).value.trim();
    body[field] = value === '' ? null : Number.isFinite(Number(value)) ? Number(value) : value;
  }
  body.tools = TOOLS.filter((tool) => toolBox(tool).checked);
  if (!editing) for (const key of Object.keys(body)) if (body[key] === null) delete body[key]; // defaults on create
  return body;
}

async function save() {
  showErrors(new Map(), []);
  const saveButton = $('agent-save', HTMLButtonElement);
  saveButton.disabled = true;
  try {
    /** @type {Agent} */
    const agent = editing
      ? await api.json('PATCH', `api/agents/${editing.id}`, formBody())
      : await api.json('POST', 'api/agents', formBody());
    closeModal('agent-editor');
    await loadAgents();
    renderAgentList();
    changed('conversation');
    $('agents-status').textContent = `Saved ${agent.name}.`;
    void refreshList();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const { byField, rest } = splitFieldMessages(error.message, FIELDS);
      showErrors(byField, rest);
    } else {
      showErrors(new Map(), [describe(error).text]);
    }
  } finally {
    saveButton.disabled = false;
  }
}

/**
 * @param {Map<string, string[]>} byField
 * @param {string[]} rest
 */
function showErrors(byField, rest) {
  let first = null;
  for (const field of FIELDS) {
    const messages = byField.get(field) ?? [];
    const label = fieldLabel(field);
    $(`agent-${field}-error`).textContent = messages
      .map((m) => labelFieldMessage(m, field, label).replace(/\.?$/, '.'))
      .join(' ');
    const control = field === 'tools' ? toolBox(TOOLS[0]) : input(field);
    if (messages.length) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
    if (messages.length && !first) first = control;
  }
  $('agent-form-error').textContent = rest.length
    ? rest.join('; ')
    : byField.size
      ? 'Some fields need a change: see the messages beside them.'
      : '';
  first?.focus();
}

/**
 * The field's label as the form shows it (the legend for the tools).
 * @param {string} field
 */
function fieldLabel(field) {
  const node =
    field === 'tools'
      ? $('agent-form').querySelector('legend')
      : $('agent-form').querySelector(`label[for="agent-${field}"]`);
  return node?.textContent?.trim() || field;
}

/**
 * Asks, then deletes; an agent with conversations asks again what becomes of them.
 * @param {Agent} agent
 */
async function remove(agent) {
  const label = agent.emoji ? `${agent.emoji} ${agent.name}` : agent.name;
  let choice = await ask(`Delete the agent “${label}”?`, `“${label}” will be deleted. This cannot be undone.`, false);
  if (choice !== 'delete') return;
  let query = '';
  let status = '';
  for (;;) {
    try {
      /** @type {Schemas['AgentDeletedDto']} */
      const result = await api.json('DELETE', `api/agents/${agent.id}${query}`);
      const n = result?.conversations ?? 0;
      status = `Deleted ${label}${n ? `; ${n} conversation${n === 1 ? '' : 's'} ${query.endsWith('detach') ? 'kept without an agent' : 'deleted'}` : ''}.`;
      break;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && query === '') {
        const n = Number(/** @type {{ conversations?: number }} */ (error.body).conversations ?? 0);
        const many = n === 1 ? '1 conversation' : `${n} conversations`;
        choice = await ask(
          `“${label}” has ${many}`,
          `Keep ${n === 1 ? 'it' : 'them'} without an agent, or delete ${n === 1 ? 'it' : 'them'} with all ${n === 1 ? 'its' : 'their'} messages?`,
          true,
        );
        if (choice === 'detach') query = '?conversations=detach';
        else if (choice === 'delete') query = '?conversations=delete';
        else return;
        continue;
      }
      if (!(error instanceof ApiError && error.status === 404)) {
        $('agents-status').textContent = describe(error).text;
        return;
      }
      break; // already gone
    }
  }
  if (state.newAgentId === agent.id) state.newAgentId = '';
  await loadAgents();
  renderAgentList();
  if (status) $('agents-status').textContent = status;
  if (state.current?.agentId === agent.id) {
    // Its conversation was detached (the badge says so now) or deleted (a new chat is shown).
    if (query.endsWith('delete')) navigate('#/');
    else state.current.agentId = null;
  }
  changed('conversation');
  await refreshList();
  $('agent-new').focus();
}

/**
 * The delete dialog: resolves with "cancel", "detach" or "delete".
 * @param {string} title
 * @param {string} text
 * @param {boolean} inUse offer to keep the conversations
 * @returns {Promise<string>}
 */
function ask(title, text, inUse) {
  const dialog = $('agent-delete-dialog', HTMLDialogElement);
  $('agent-delete-title').textContent = title;
  $('agent-delete-text').textContent = text;
  $('agent-delete-detach').hidden = !inUse;
  $('agent-delete-ok').textContent = inUse ? 'Delete the conversations' : 'Delete';
  dialog.returnValue = '';
  openModal('agent-delete-dialog', /** @type {HTMLElement} */ (dialog.querySelector('button[value="cancel"]')));
  return new Promise((resolve) =>
    dialog.addEventListener('close', () => resolve(dialog.returnValue || 'cancel'), { once: true }),
  );
}
