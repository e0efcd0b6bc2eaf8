// @ts-check
// What the message box starts: sending, regenerating the last reply (a sibling answer: the path
// is read again for its ‹ n/m ›), stopping a reply; and its Send and Stop buttons. The box itself
// (height, count, focus) is message-box.js.
import { reloadPath, syncBranchControls } from './branches.js';
import { $ } from './dom.js';
import { hideError, showError } from './errors.js';
import { refreshList } from './list.js';
import { autosize } from './message-box.js';
import { conversationShown } from './navigation.js';
import { changed, state } from './state.js';
import { cancel, streamReply } from './stream.js';
import { regenerateFields, threadFields, threadStarted } from './thread-panel.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').ViewMessage} ViewMessage */

export async function send() {
  const opening = state.current?.loading ? state.current.id : undefined;
  if (opening) {
    // Its messages are being read: the reply is shown among them once they are.
    await conversationShown();
    if (state.current?.id !== opening || state.current.loading) return;
  }
  const input = $('message', HTMLTextAreaElement);
  const text = input.value;
  if (state.busy || !text.trim()) return;
  if (state.maxMessageChars !== null && text.length > state.maxMessageChars) {
    showError(
      new Error(
        `The message is ${text.length.toLocaleString('en')} characters long; this server takes at most ${state.maxMessageChars.toLocaleString('en')}. Shorten it, or send it in parts.`,
      ),
    );
    return;
  }
  hideError();
  const isNew = !state.current;
  /** @type {Schemas['ChatRequestDto']} */
  const body = { message: text };
  if (!state.current) {
    if (state.newAgentId) body.agentId = state.newAgentId;
    if (state.newModel) body.model = state.newModel;
    state.current = {
      id: null,
      title: text.trim().slice(0, 60),
      agentId: state.newAgentId || null,
      model: state.newModel || null,
      messages: [],
    };
  } else {
    body.conversationId = /** @type {string} */ (state.current.id);
    Object.assign(body, threadFields(state.current));
  }
  const conversation = state.current;
  /** @type {ViewMessage} */
  const question = { id: null, role: 'user', content: text, status: 'complete', error: null };
  /** @type {ViewMessage} */
  const reply = { id: null, role: 'assistant', content: '', status: 'streaming', error: null };
  conversation.messages.push(question, reply);
  input.value = '';
  autosize();
  changed('conversation');

  const started = await streamReply(conversation, reply, 'POST', 'api/chat/stream', body, (turn) => {
    question.id = turn.userMessageId ?? null;
    changed('message', question); // its id allows a fork from it now
    if (isNew) {
      Object.assign(conversation, { id: turn.conversationId, title: turn.title, agentId: turn.agentId });
      if (state.current === conversation) {
        history.replaceState(null, '', `#/c/${turn.conversationId}`);
        changed('conversation');
      }
      void refreshList();
    }
  });
  if (started) threadStarted(conversation);
  if (!started) {
    // Refused before anything was stored: take the bubbles back and give the text back.
    conversation.messages.splice(conversation.messages.indexOf(question), 2);
    if (state.current === conversation) {
      if (isNew) state.current = null;
      if (!input.value) input.value = text;
      autosize();
      changed('conversation');
    }
  }
  void refreshList();
}

export async function regenerate() {
  const conversation = state.current;
  if (!conversation?.id || state.busy) return;
  hideError();
  const last = conversation.messages.at(-1);
  let reply = last;
  /** @type {Pick<ViewMessage, 'content' | 'status' | 'error'> | null} */
  let before = null;
  if (last?.role === 'assistant') {
    before = { content: last.content, status: last.status, error: last.error };
    Object.assign(last, { content: '', status: 'streaming', error: null });
  } else {
    reply = { id: null, role: 'assistant', content: '', status: 'streaming', error: null };
    conversation.messages.push(reply);
  }
  const answer = /** @type {ViewMessage} */ (reply);
  changed('conversation');
  const started = await streamReply(
    conversation,
    answer,
    'POST',
    `api/conversations/${conversation.id}/regenerate/stream`,
    regenerateFields(conversation),
  );
  if (!started) {
    if (before) Object.assign(answer, before);
    else conversation.messages.splice(conversation.messages.indexOf(answer), 1);
    if (state.current === conversation) changed('conversation');
  } else {
    reloadPath(conversation).catch((error) => state.current === conversation && showError(error));
  }
  void refreshList();
}

export async function stop() {
  const busy = state.busy;
  if (!busy || busy.stopRequested) return;
  busy.stopRequested = true;
  $('stop', HTMLButtonElement).disabled = true;
  if (busy.messageId) await cancel(busy); // otherwise as soon as the conversation event names it
}

/** Send or stop, as the reply being streamed says (the `busy` topic). */
export function updateComposer() {
  const busy = Boolean(state.busy);
  $('send').hidden = busy;
  $('stop').hidden = !busy;
  $('stop', HTMLButtonElement).disabled = Boolean(state.busy?.stopRequested);
  syncBranchControls(); // no switching branches or editing while a reply streams
}
