// @ts-check
// The model picker (GET /api/models): the model of the conversation shown (PATCH
// /api/conversations/:id with `model`), or of the next new chat (sent with its first message).
// Hidden when a single model is offered.
import { $ } from './dom.js';
import { showError } from './errors.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

/** @type {Schemas['ModelListDto'] | null} */
let offered = null;

/** Reads the models offered; the picker stays hidden when that fails (the default model answers). */
export async function loadModels() {
  try {
    offered = await api.json('GET', 'api/models');
  } catch {
    offered = null;
  }
  const select = $('model-select', HTMLSelectElement);
  const options = [new Option(offered ? `Default (${offered.defaultModel})` : 'Default', '')];
  for (const model of offered?.items ?? [])
    if (model.id !== offered?.defaultModel) options.push(new Option(model.id, model.id));
  select.replaceChildren(...options);
  renderModelPicker();
}

/** Shows the model of the conversation shown, or the one picked for the next new chat. */
export function renderModelPicker() {
  const select = $('model-select', HTMLSelectElement);
  const chosen = state.current ? (state.current.model ?? '') : state.newModel;
  // A model no longer offered (LLM_MODELS changed) is still shown as the conversation's.
  if (chosen && ![...select.options].some((o) => o.value === chosen)) select.append(new Option(chosen, chosen));
  select.value = chosen;
  $('model-picker').hidden = !offered || offered.items.length < 2;
}

export function wireModelPicker() {
  const select = $('model-select', HTMLSelectElement);
  select.addEventListener('change', () => void choose(select.value));
}

/** @param {string} model '' for the default */
async function choose(model) {
  const conversation = state.current;
  if (!conversation?.id) {
    state.newModel = model;
    if (conversation) conversation.model = model || null;
    return;
  }
  try {
    /** @type {Schemas['ConversationSummaryDto']} */
    const saved = await api.json('PATCH', `api/conversations/${conversation.id}`, { model: model || null });
    conversation.model = saved.model;
    $('announcer').textContent = `Model: ${saved.model ?? 'the default'}.`;
  } catch (error) {
    showError(error);
  }
  renderModelPicker();
}
