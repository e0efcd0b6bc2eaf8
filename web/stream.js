// @ts-check
// A reply as it streams in: from a turn just sent, a regenerate, or one being generated
// elsewhere (followed); what ends it, what refuses it, and cancelling it. The reply's text and
// `state.busy` change here; the page shows them as they change (`message`, `busy`).
import { ApiError } from './api.js';
import { setAgents } from './agents.js';
import { askForKey, storeKey } from './auth.js';
import { showError } from './errors.js';
import { announce } from './message-elements.js';
import { api, changed, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').ViewMessage} ViewMessage */
/** @typedef {import('./state.js').OpenConversation} OpenConversation */
/** @typedef {import('./state.js').Busy} Busy */

/**
 * Follows a reply that is being generated (GET .../messages/:messageId/stream).
 * @param {OpenConversation} conversation
 * @param {ViewMessage} reply its id is known
 * @returns {Promise<boolean>}
 */
export async function follow(conversation, reply) {
  reply.content = ''; // the first delta carries the whole text so far
  return streamReply(
    conversation,
    reply,
    'GET',
    `api/conversations/${conversation.id}/messages/${reply.id}/stream`,
    undefined,
    null,
    reply.id,
  );
}

/**
 * Streams one reply into `reply`. Resolves true once the reply exists on the server (a
 * `conversation` event, or following a known message), false when the request was refused
 * before (nothing stored). Errors are shown; the stream's end updates the reply's status.
 * @param {OpenConversation} conversation
 * @param {ViewMessage} reply
 * @param {string} method
 * @param {string} path
 * @param {unknown} body
 * @param {((turn: Schemas['StreamConversationData']) => void) | null} [onStart]
 * @param {string | null} [knownMessageId] following a stored reply
 * @returns {Promise<boolean>}
 */
export async function streamReply(conversation, reply, method, path, body, onStart, knownMessageId) {
  /** @type {Busy} */
  const busy = {
    conversationId: conversation.id,
    messageId: knownMessageId ?? null,
    controller: new AbortController(),
    stopRequested: false,
    reply,
  };
  setBusy(busy);
  let started = Boolean(knownMessageId);
  let ended = false;
  /** @type {number | null} when the first piece of thinking came */
  let thinkingSince = null;
  try {
    await api.stream(method, path, body, {
      signal: busy.controller.signal,
      onEvent: ({ event, data }) => {
        if (event === 'conversation') {
          started = true;
          busy.conversationId = data.conversationId;
          busy.messageId = reply.id = data.messageId;
          onStart?.(data);
          if (busy.stopRequested) void cancel(busy);
        } else if (event === 'reasoning') {
          thinkingSince ??= performance.now();
          reply.reasoning = (reply.reasoning ?? '') + data.text;
          changed('message', reply);
        } else if (event === 'delta') {
          // The time shown until the server's own arrives with `done`.
          if (thinkingSince !== null && reply.reasoningMs == null)
            reply.reasoningMs = performance.now() - thinkingSince;
          reply.content += data.text;
          changed('message', reply);
        } else if (event === 'done') {
          ended = true;
          const error = data.reason
            ? { statusCode: data.reason.code === 'reply_too_long' ? 413 : 504, message: data.reason.message }
            : null;
          Object.assign(reply, { content: data.reply, status: data.status, error, model: data.model });
          Object.assign(reply, {
            reasoning: data.reasoning ?? reply.reasoning ?? null,
            reasoningMs: data.reasoningMs ?? reply.reasoningMs ?? null,
            toolCalls: data.toolCalls ?? [],
          });
          if (state.current === conversation) announce(reply);
        } else if (event === 'error') {
          ended = true;
          Object.assign(reply, {
            content: data.partial ?? reply.content,
            status: 'failed',
            error: { statusCode: data.statusCode, message: data.message },
          });
          if (state.current === conversation) showError(new ApiError(data.statusCode, data));
        }
      },
    });
    if (!ended && !busy.controller.signal.aborted) {
      // The server ended the stream without done or error (it is shutting down, say): the
      // reply goes on being generated somewhere; follow it again from the stored text.
      if (busy.messageId && !knownMessageId && state.busy === busy) {
        setBusy(null);
        return (await follow(conversation, reply)) || started;
      }
      reply.status = 'failed';
      reply.error = {
        message: 'The connection ended before the reply was finished; open the conversation again to see it',
      };
    }
  } catch (error) {
    if (busy.controller.signal.aborted) return started; // the user went elsewhere; the server carries on
    if (started) {
      // The connection broke mid-reply; the server keeps generating and storing it.
      const message =
        'The connection was lost while the reply was streaming; open the conversation again to see the rest';
      Object.assign(reply, { status: 'failed', error: { message } });
      if (state.current === conversation) showError(new Error(message));
    } else if (state.current === conversation) {
      await handleRefusal(error, conversation);
    }
  } finally {
    changed('message', reply);
    if (state.busy === busy) setBusy(null);
  }
  return started;
}

/**
 * A request refused before its stream started: say why, and do what the answer allows.
 * @param {unknown} error
 * @param {OpenConversation} conversation
 */
async function handleRefusal(error, conversation) {
  if (error instanceof ApiError && error.status === 401) {
    storeKey(null);
    setAgents(await askForKey('The server refused the API key. Enter it again, then send again.'));
    return;
  }
  showError(error);
  // 409: a reply is still being generated in this conversation (another tab, another client):
  // show it as it arrives, so it can be stopped or awaited.
  const id = conversation.id;
  if (
    error instanceof ApiError &&
    error.status === 409 &&
    error.body.messageId &&
    id &&
    error.body.conversationId === id
  ) {
    setTimeout(() => changed('reply-elsewhere', conversation), 0);
  }
}

/**
 * POST .../cancel: the stream then ends with done and status "cancelled".
 * @param {Busy} busy
 */
export async function cancel(busy) {
  try {
    await api.json('POST', `api/conversations/${busy.conversationId}/messages/${busy.messageId}/cancel`);
  } catch (error) {
    showError(error);
  }
}

/** Stops listening to the reply being streamed; the server goes on generating and storing it. */
export function detachStream() {
  const busy = state.busy;
  if (!busy) return;
  setBusy(null);
  busy.controller.abort();
}

/** @param {Busy | null} busy */
function setBusy(busy) {
  state.busy = busy;
  changed('busy');
}
