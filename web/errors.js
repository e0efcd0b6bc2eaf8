// @ts-check
// Errors, shown plainly above the message box.
import { ApiError, NetworkError } from './api.js';
import { $ } from './dom.js';

/**
 * A title and a sentence for any error the page meets.
 * @param {unknown} error
 * @returns {{ title: string, text: string }}
 */
export function describe(error) {
  if (error instanceof NetworkError)
    return { title: 'Cannot reach the server.', text: 'Check that it is running, then try again.' };
  if (!(error instanceof ApiError))
    return { title: 'Error.', text: error instanceof Error ? error.message : String(error) };
  const message = error.message;
  switch (error.status) {
    case 409:
      return { title: 'Busy (409).', text: message };
    case 429: {
      const when =
        error.retryAfter !== undefined ? `Try again in ${error.retryAfter} s.` : 'Wait a moment, then try again.';
      return {
        title: 'Rate limited (429).',
        text: /\bretry\b|try again/i.test(message) ? message : `${message} ${when}`,
      };
    }
    case 502:
      // The server's own wording for a model server that answered 429: waiting is the fix, not the model.
      if (/^The model is rate-limited\b/.test(message)) return { title: 'The model is rate-limited.', text: message };
      return { title: 'The model is unavailable (502).', text: message };
    case 504:
      return { title: 'The model timed out (504).', text: message };
    case 503:
      return { title: 'Service unavailable (503).', text: message };
    default:
      return { title: `${error.body.error ?? 'Error'} (${error.status}).`, text: message };
  }
}

/** @param {unknown} error */
export function showError(error) {
  const { title, text } = describe(error);
  $('error-title').textContent = title;
  $('error-text').textContent = text;
  $('error').hidden = false;
}

export function hideError() {
  $('error').hidden = true;
}
