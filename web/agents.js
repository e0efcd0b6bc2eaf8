// @ts-check
// The caller's agents: the picker for a new conversation, and their names in the list and the title bar.
import { $ } from './dom.js';
import { showError } from './errors.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Agent} Agent */
/** @typedef {import('./state.js').Schemas} Schemas */

/** The page stops following nextCursor after this many pages (200 agents each). */
const MAX_AGENT_PAGES = 50;

/**
 * Every agent of the caller, following nextCursor page by page (one page holds them all under
 * the default MAX_AGENTS_PER_ACTOR).
 * @param {string} [key] this key rather than the one kept (a key being checked)
 * @returns {Promise<Agent[]>}
 */
export async function fetchAgents(key) {
  /** @type {Agent[]} */
  const items = [];
  /** @type {string | null} */
  let cursor = null;
  for (let page = 0; page < MAX_AGENT_PAGES; page++) {
    /** @type {Schemas['AgentListDto']} */
    const agents = await api.json(
      'GET',
      cursor ? `api/agents?cursor=${encodeURIComponent(cursor)}` : 'api/agents',
      undefined,
      key ? { key } : {},
    );
    items.push(...agents.items);
    cursor = agents.nextCursor;
    if (!cursor) break;
  }
  return items;
}

export async function loadAgents() {
  try {
    setAgents(await fetchAgents());
  } catch (error) {
    showError(error);
  }
}

/** @param {Agent[]} items */
export function setAgents(items) {
  state.agents = new Map(items.map((a) => [a.id, a]));
  const select = $('agent-select', HTMLSelectElement);
  const options = [new Option('No agent', '')];
  for (const agent of items) options.push(new Option(agentLabel(agent), agent.id));
  select.replaceChildren(...options);
  if (!state.agents.has(state.newAgentId)) state.newAgentId = '';
  select.value = state.newAgentId;
}

/** @param {Agent} agent */
export const agentLabel = (agent) => (agent.emoji ? `${agent.emoji} ${agent.name}` : agent.name);

/** @param {string | null} agentId */
export function agentName(agentId) {
  if (!agentId) return 'No agent';
  const agent = state.agents.get(agentId);
  return agent ? agentLabel(agent) : `Agent ${agentId.slice(0, 8)}`;
}
