// @ts-check
// Threads of the conversation shown: the thread picker in the title bar, and a new thread with a
// system prompt of its own (the API creates a thread with its first turn, which carries the prompt).
import { $ } from './dom.js';
import { hideError } from './errors.js';
import { focusComposer } from './message-box.js';
import { closeModal, openModal, restoreFocusOnClose } from './modal.js';
import { openConversation } from './navigation.js';
import { changed, state } from './state.js';
import { detachStream } from './stream.js';

/** @typedef {import('./state.js').OpenConversation} OpenConversation */

const THREAD_NAME = /^[a-z0-9_-]{1,64}$/;

export function wireThreads() {
  const select = $('thread-select', HTMLSelectElement);
  select.addEventListener('change', () => {
    const id = state.current?.id;
    if (id) void openConversation(id, { thread: select.value });
  });
  $('new-thread').addEventListener('click', openThreadDialog);
  $('thread-cancel').addEventListener('click', () => closeModal('thread-dialog'));
  $('thread-form').addEventListener('submit', (event) => {
    event.preventDefault();
    startThread();
  });
  restoreFocusOnClose('thread-dialog');
}

/** The thread picker (and the conversation's tools) for a stored conversation; hidden for a new chat. */
export function renderThreadBar() {
  const conversation = state.current;
  const stored = Boolean(conversation?.id);
  $('thread-bar').hidden = !stored;
  $('conversation-tools').hidden = !stored;
  if (!conversation || !stored) return;
  const current = conversation.thread ?? 'main';
  const names = (conversation.threads ?? []).map((t) => t.name);
  if (!names.includes('main')) names.unshift('main');
  const isNew = !names.includes(current); // started by its first message
  if (isNew) names.push(current);
  const select = $('thread-select', HTMLSelectElement);
  select.replaceChildren(...names.map((name) => new Option(isNew && name === current ? `${name} (new)` : name, name)));
  select.value = current;
  const prompt = conversation.threads?.find((t) => t.name === current)?.systemPrompt ?? conversation.pendingSystem;
  select.title = prompt ? `System prompt: ${prompt}` : '';
}

function openThreadDialog() {
  if (!state.current?.id) return;
  $('thread-name', HTMLInputElement).value = '';
  $('thread-system', HTMLTextAreaElement).value = '';
  $('thread-error').textContent = '';
  $('thread-name').removeAttribute('aria-invalid');
  openModal('thread-dialog', $('thread-name'));
}

function startThread() {
  const conversation = state.current;
  if (!conversation?.id) return;
  const nameInput = $('thread-name', HTMLInputElement);
  const name = nameInput.value.trim();
  if (!THREAD_NAME.test(name)) {
    $('thread-error').textContent = 'The name must be 1-64 characters of a-z, 0-9, “_” and “-”.';
    nameInput.setAttribute('aria-invalid', 'true');
    nameInput.focus();
    return;
  }
  const system = $('thread-system', HTMLTextAreaElement).value;
  closeModal('thread-dialog', { restoreFocus: false });
  detachStream();
  hideError();
  if (conversation.threads?.some((t) => t.name === name)) {
    // It exists: show it; its prompt is replaced with the next turn if one was given.
    void openConversation(conversation.id, { thread: name }).then(() => {
      if (system.trim() && state.current?.id === conversation.id) state.current.pendingSystem = system;
      renderThreadBar();
    });
    return;
  }
  state.current = {
    ...conversation,
    thread: name,
    messages: [],
    nextBefore: null,
    loadingEarlier: false,
    pendingSystem: system,
  };
  changed('conversation');
  $('announcer').textContent = `New thread ${name}: its first message starts it.`;
  focusComposer();
}

/**
 * The thread fields of a chat turn in this conversation.
 * @param {OpenConversation} conversation
 * @returns {{ thread?: string, system?: string }}
 */
export function threadFields(conversation) {
  const thread = conversation.thread ?? 'main';
  return {
    ...(thread === 'main' ? {} : { thread }),
    ...(conversation.pendingSystem ? { system: conversation.pendingSystem } : {}),
  };
}

/**
 * The body of a regenerate in the thread shown.
 * @param {OpenConversation} conversation
 */
export function regenerateFields(conversation) {
  const thread = conversation.thread ?? 'main';
  return thread === 'main' ? {} : { thread };
}

/**
 * A turn was stored: its thread exists now, with the prompt it was sent with.
 * @param {OpenConversation} conversation
 */
export function threadStarted(conversation) {
  const name = conversation.thread ?? 'main';
  const threads = conversation.threads ?? [];
  const known = threads.find((t) => t.name === name);
  const now = new Date().toISOString();
  if (!known)
    conversation.threads = [
      ...threads,
      { name, systemPrompt: conversation.pendingSystem || null, createdAt: now, updatedAt: now },
    ];
  else if (conversation.pendingSystem !== undefined) known.systemPrompt = conversation.pendingSystem || null;
  delete conversation.pendingSystem;
  if (state.current === conversation) renderThreadBar();
}
