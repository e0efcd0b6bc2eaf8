// @ts-check
// Importing archives (POST /api/imports, docs/imports.md): a ChatGPT or Open WebUI export, or a
// file exported from here. The file chosen is checked first (?dryRun=true: what would be
// imported, what would be skipped and why, what is not kept as text), imported once confirmed,
// and the final report links to each conversation stored. The file goes as the request body,
// with its own type; the page never reads it. A file's memories and agents are shown with their
// text and imported only when their boxes, unchecked at first, are checked: a file someone sent
// must not change what the model is told in the user's other chats unseen.
import { ApiError } from './api.js';
import { $, el } from './dom.js';
import { describe } from './errors.js';
import { refreshList } from './list.js';
import { showView } from './list-filters.js';
import { closeModal, openModal, restoreFocusOnClose } from './modal.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {Schemas['ArchiveImportReportDto']} Report */

/** Longer lists show their first entries and say how many more there are. */
const SHOWN = 100;
const number = (/** @type {number} */ n) => n.toLocaleString('en');
/** @param {number} n @param {string} one @param {string} [many] */
const count = (n, one, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;

/** @type {Record<Report['format'], string>} */
const FORMATS = {
  chatgpt: 'a ChatGPT export',
  'open-webui': 'an Open WebUI export',
  'chat-memory': 'a chat-memory export',
  empty: 'an empty archive',
};

/** @type {Array<[keyof Report['dropped'], string, string?]>} */
const DROPPED = [
  ['images', 'image'],
  ['files', 'file'],
  ['toolMessages', 'tool message'],
  ['reasoning', 'reasoning note'],
  ['hiddenMessages', 'hidden message'],
  ['other', 'other part'],
];

/**
 * The file checked, whose import the confirm button starts, and what its dry run found; `seq` drops the answers of a file chosen before.
 * @type {{ file: File | null, seq: number, conversations: number, memories: number, agents: number }}
 */
const chosen = { file: null, seq: 0, conversations: 0, memories: 0, agents: 0 };

export function wireImportDialog() {
  const input = $('import-file', HTMLInputElement);
  $('import').addEventListener('click', openImport);
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void check(file);
  });
  $('import-confirm').addEventListener('click', () => void confirmImport());
  const memories = $('import-memories', HTMLInputElement);
  memories.addEventListener('change', () => {
    const pins = $('import-pins', HTMLInputElement);
    pins.disabled = !memories.checked;
    if (!memories.checked) pins.checked = false;
    updateConfirm();
  });
  $('import-agents').addEventListener('change', updateConfirm);
  $('import-close').addEventListener('click', () => closeModal('import-dialog'));
  restoreFocusOnClose('import-dialog');
}

function openImport() {
  chosen.file = null;
  chosen.seq++;
  const input = $('import-file', HTMLInputElement);
  input.value = '';
  input.disabled = false;
  show({ status: '', report: [], error: '' });
  $('import-close').textContent = 'Cancel';
  openModal('import-dialog', input);
}

/**
 * The dry run: the report of what importing the file would do, and the button to do it.
 * @param {File} file
 */
async function check(file) {
  const seq = ++chosen.seq;
  chosen.file = null;
  show({ status: `Checking ${file.name}…`, report: [], error: '' });
  /** @type {Report} */
  let report;
  try {
    report = await api.upload('api/imports?dryRun=true', file);
  } catch (error) {
    if (seq === chosen.seq) show({ status: '', report: [], error: refusal(file, error) });
    return;
  }
  if (seq !== chosen.seq) return; // another file was chosen meanwhile
  const n = report.importedCount;
  const memories = memoriesIn(report);
  const agents = report.agents.length;
  const holds = [memories ? count(memories, 'memory', 'memories') : '', agents ? count(agents, 'agent') : '']
    .filter(Boolean)
    .join(' and ');
  show({
    status:
      `${file.name} is ${FORMATS[report.format]}: ${n ? `${count(n, 'conversation')} to import (${count(messagesOf(report), 'message')})` : 'nothing to import'}` +
      `${skippedText(report, 'to skip')}${holds ? `; it also holds ${holds}, imported only if checked below` : ''}.`,
    report: reportView(report, false),
    error: '',
  });
  showExtras(report);
  if (!n && !memories && !agents) return;
  Object.assign(chosen, { file, conversations: n, memories, agents });
  const confirm = $('import-confirm', HTMLButtonElement);
  confirm.hidden = false;
  updateConfirm();
}

/** @param {Report} report */
const memoriesIn = (report) => report.memories.imported + report.memories.skipped;

/**
 * The boxes to take the file's memories and agents too, unchecked, each shown when the file has some.
 * @param {Report | null} report
 */
function showExtras(report) {
  const memories = report ? memoriesIn(report) : 0;
  const agents = report ? report.agents.length : 0;
  const pinned = report ? report.memories.items.some((m) => m.pinned) : false;
  $('import-extras').hidden = !memories && !agents;
  for (const id of ['import-memories', 'import-pins', 'import-agents']) $(id, HTMLInputElement).checked = false;
  $('import-pins', HTMLInputElement).disabled = true;
  $('import-memories').parentElement?.toggleAttribute('hidden', !memories);
  $('import-pins-choice').hidden = !pinned;
  $('import-agents').parentElement?.toggleAttribute('hidden', !agents);
  $('import-memories-text').textContent =
    `Also import the ${count(memories, 'memory', 'memories')} (read into every later chat)`;
  $('import-agents-text').textContent = `Also import the ${count(agents, 'agent')} (with their instructions and tools)`;
}

/** The confirm button says what it will import: the conversations, and what is checked. */
function updateConfirm() {
  const parts = [];
  if (chosen.conversations) parts.push(count(chosen.conversations, 'conversation'));
  if (chosen.memories && $('import-memories', HTMLInputElement).checked)
    parts.push(count(chosen.memories, 'memory', 'memories'));
  if (chosen.agents && $('import-agents', HTMLInputElement).checked) parts.push(count(chosen.agents, 'agent'));
  const confirm = $('import-confirm', HTMLButtonElement);
  confirm.textContent = `Import ${parts.join(', ') || 'nothing'}`;
  confirm.disabled = parts.length === 0;
}

/** The query of the import itself: the memories and agents only when their boxes are checked. */
function requestedQuery() {
  const query = new URLSearchParams();
  if ($('import-memories', HTMLInputElement).checked) query.set('memories', 'true');
  if ($('import-pins', HTMLInputElement).checked) query.set('pinMemories', 'true');
  if ($('import-agents', HTMLInputElement).checked) query.set('agents', 'true');
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The import itself, once the report was read; the list is refreshed with what it stored. */
async function confirmImport() {
  const file = chosen.file;
  if (!file) return;
  const seq = ++chosen.seq;
  const input = $('import-file', HTMLInputElement);
  const confirm = $('import-confirm', HTMLButtonElement);
  confirm.disabled = true;
  input.disabled = true;
  const query = requestedQuery();
  $('import-extras').hidden = true;
  $('import-status').textContent = `Importing ${file.name}…`;
  try {
    /** @type {Report} */
    const report = await api.upload(`api/imports${query}`, file);
    if (seq !== chosen.seq) return;
    show({
      status: `Imported ${count(report.importedCount, 'conversation')} (${count(messagesOf(report), 'message')})${skippedText(report, 'skipped')}.`,
      report: reportView(report, true),
      error: '',
    });
  } catch (error) {
    if (seq !== chosen.seq) return;
    // A file that went wrong part way keeps the conversations stored before that point.
    const stored =
      error instanceof ApiError
        ? (/** @type {{ imported?: Schemas['StoredBeforeErrorDto'][] }} */ (error.body).imported ?? [])
        : [];
    show({
      status: '',
      report: stored.length
        ? [
            section(
              'Stored before the error',
              stored.map((c) => [conversationLink(c.id, c.title)]),
            ),
          ]
        : [],
      error: refusal(file, error),
    });
  } finally {
    // What was stored shows in the list (the Chats view: imported conversations are not archived).
    if (state.list.archived || state.list.pinnedOnly) showView('chats');
    else void refreshList();
  }
  if (seq !== chosen.seq) return;
  chosen.file = null;
  input.disabled = false;
  $('import-close').textContent = 'Close';
  $('import-close').focus(); // the confirm button is gone
}

/**
 * Shows the dialog's status, report and error (the confirm button hides until a check passes).
 * @param {{ status: string, report: HTMLElement[], error: string }} view
 */
function show({ status, report, error }) {
  $('import-status').textContent = status;
  $('import-report').replaceChildren(...report);
  $('import-error').textContent = error;
  $('import-confirm').hidden = true;
  $('import-extras').hidden = true;
}

/** @param {File} file @param {unknown} error */
function refusal(file, error) {
  return `${file.name} cannot be imported: ${describe(error).text}`;
}

/** @param {Report} report */
const messagesOf = (report) => report.imported.reduce((sum, c) => sum + c.messages, 0);

/** @param {Report} report @param {string} verb */
const skippedText = (report, verb) => (report.skippedCount ? `, ${number(report.skippedCount)} ${verb}` : '');

/**
 * What the report says, section by section: the conversations (links once stored), those
 * skipped with their reasons, and what is not kept as text.
 * @param {Report} report
 * @param {boolean} final
 */
function reportView(report, final) {
  const sections = [];
  if (report.imported.length) {
    sections.push(
      section(
        final ? 'Imported' : 'To import',
        report.imported.map((c) => {
          const detail = `${count(c.messages, 'message')}${c.branches ? `, ${count(c.branches, 'branch point')}` : ''}`;
          return [c.id ? conversationLink(c.id, c.title) : el('span', 'import-title', c.title), ` · ${detail}`];
        }),
        report.importedCount,
      ),
    );
  }
  if (report.skipped.length) {
    sections.push(
      section(
        final ? 'Skipped' : 'To skip',
        report.skipped.map((s) => [
          el('span', 'import-title', s.title || s.sourceId || `Entry ${s.index + 1}`),
          `: ${s.reason}`,
        ]),
        report.skippedCount,
      ),
    );
  }
  const memories = memoriesIn(report);
  if (memories) {
    const title = !final
      ? 'Memories in the file'
      : report.memories.imported
        ? 'Memories imported'
        : 'Memories not imported';
    sections.push(
      section(
        title,
        report.memories.items.map((m) => [m.text, ...(m.pinned ? [el('span', 'import-excerpt', ' (pinned)')] : [])]),
        memories,
      ),
    );
    if (final && report.memories.reason)
      sections.push(el('p', 'dialog-note', `Memories not imported: ${report.memories.reason}.`));
  }
  if (report.agents.length) {
    sections.push(
      section(
        final ? 'Agents' : 'Agents in the file',
        report.agents.map((a) => {
          const tools = a.tools.length ? ` · tools: ${a.tools.join(', ')}` : '';
          const outcome = final ? ` · ${a.outcome}${a.reason ? ` (${a.reason})` : ''}` : '';
          return [
            el('span', 'import-title', a.name || 'Unnamed'),
            el('span', 'import-excerpt', a.systemPrompt ? `: ${a.systemPrompt}` : ''),
            `${tools}${outcome}`,
          ];
        }),
      ),
    );
  }
  const dropped = DROPPED.filter(([key]) => report.dropped[key] > 0).map(([key, one]) =>
    count(report.dropped[key], one),
  );
  const notes = [];
  if (dropped.length) notes.push(`Not kept as text: ${dropped.join(', ')}.`);
  if (final && report.agentsNotImported)
    notes.push(
      `${count(report.agentsNotImported, 'agent')} in the file ${report.agentsNotImported === 1 ? 'is' : 'are'} not imported.`,
    );
  if (notes.length) sections.push(el('p', 'dialog-note', notes.join(' ')));
  return sections;
}

/**
 * A heading and a list of entries (the first SHOWN of them; the report itself lists only the first of a long list).
 * @param {string} title
 * @param {Array<Array<Node | string>>} entries
 * @param {number} [total] how many there are in all
 */
function section(title, entries, total = entries.length) {
  const box = el('section', 'import-section');
  const heading = el('h3', '', `${title} (${number(total)})`);
  const list = el('ul', 'import-list');
  list.append(
    ...entries.slice(0, SHOWN).map((parts) => {
      const item = el('li');
      item.append(...parts);
      return item;
    }),
  );
  box.append(heading, list);
  const shown = Math.min(entries.length, SHOWN);
  if (total > shown) box.append(el('p', 'dialog-note', `…and ${number(total - shown)} more.`));
  return box;
}

/** A link that closes the dialog and opens the conversation. @param {string} id @param {string} title */
function conversationLink(id, title) {
  const link = el('a', 'import-title', title || 'Untitled');
  link.href = `#/c/${id}`;
  link.addEventListener('click', () => closeModal('import-dialog', { restoreFocus: false }));
  return link;
}
