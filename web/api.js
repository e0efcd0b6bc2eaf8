// @ts-check
// The service's HTTP API as this page uses it: JSON routes, and the streaming routes read as
// server-sent events with fetch. URLs are relative: the page and the API are served by the same
// service. Types come from the client generated from the OpenAPI document.
import { readEventStream } from './event-stream.js';

/** @typedef {import('../clients/typescript/src/schema.js').components['schemas']} Schemas */
/**
 * One event of the streaming routes, as the OpenAPI document describes it.
 * @typedef {Schemas['StreamConversationEvent'] | Schemas['StreamReasoningEvent'] | Schemas['StreamDeltaEvent'] | Schemas['StreamDoneEvent'] | Schemas['StreamErrorEvent']} StreamEvent
 */
/**
 * The service's error body (`{ statusCode, error, message, code, ... }`), with the fields some answers add.
 * @typedef {{ statusCode?: number, error?: string, message?: string, code?: string, messageId?: string, conversationId?: string }} ErrorBody
 */
/** @typedef {{ body?: unknown, file?: Blob, signal?: AbortSignal, key?: string | null }} RequestOptions */

/** An answer with an error status: `body` is the service's error body. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ErrorBody | null | undefined} body
   * @param {number} [retryAfter] seconds, from the Retry-After header
   */
  constructor(status, body, retryAfter) {
    super(body?.message || `The server answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    /** @type {ErrorBody} */
    this.body = body ?? {};
    this.retryAfter = retryAfter;
  }
}

/** The request did not get an answer at all (server down, network gone). */
export class NetworkError extends Error {
  constructor() {
    super('The server could not be reached');
    this.name = 'NetworkError';
  }
}

/**
 * @param {() => string | null} getKey the API key to send, or null (single-user mode needs none)
 */
export function createApi(getKey) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {RequestOptions} [options]
   */
  async function request(method, path, { body, file, signal, key = getKey() } = {}) {
    /** @type {Record<string, string>} */
    const headers = {};
    if (key) headers.Authorization = `Bearer ${key}`;
    if (file) headers['Content-Type'] = uploadType(file);
    else if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      // A file goes as it is: the browser streams it from disk, the page never holds it.
      response = await fetch(path, {
        method,
        headers,
        body: file ?? (body === undefined ? undefined : JSON.stringify(body)),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new NetworkError();
    }
    if (!response.ok) throw await apiError(response);
    return response;
  }

  return {
    /**
     * A JSON route: resolves with the parsed body (null for 204). The caller names its type
     * from Schemas (`@type {Schemas['AgentListDto']}`).
     * @param {string} method
     * @param {string} path
     * @param {unknown} [body]
     * @param {Omit<RequestOptions, 'body'>} [options]
     * @returns {Promise<any>}
     */
    async json(method, path, body, options = {}) {
      const response = await request(method, path, { ...options, body });
      return response.status === 204 ? null : response.json();
    },

    /**
     * A file as the request body (an archive to import), sent with its own type; resolves with
     * the JSON answer.
     * @param {string} path
     * @param {Blob} file
     * @returns {Promise<any>}
     */
    async upload(path, file) {
      return (await request('POST', path, { file })).json();
    },

    /**
     * A file to download (an export): its body and the name its Content-Disposition gives.
     * @param {string} path
     * @param {string} fallbackName
     * @returns {Promise<{ blob: Blob, filename: string }>}
     */
    async download(path, fallbackName) {
      const response = await request('GET', path);
      const disposition = response.headers.get('Content-Disposition') ?? '';
      const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
      const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
      let filename = fallbackName;
      try {
        filename = utf8 ? decodeURIComponent(utf8) : (plain ?? fallbackName);
      } catch {
        // a malformed name: keep the fallback
      }
      return { blob: await response.blob(), filename };
    },

    /**
     * A streaming route: calls onEvent for every event until the server ends the stream.
     * Errors found before the stream starts reject with an ApiError (JSON body).
     * @param {string} method
     * @param {string} path
     * @param {unknown} body
     * @param {{ signal: AbortSignal, onEvent: (event: StreamEvent) => void }} options
     */
    async stream(method, path, body, { signal, onEvent }) {
      const response = await request(method, path, { body, signal });
      if (!response.body) return;
      await readEventStream(response.body, ({ event, data }) =>
        onEvent(/** @type {StreamEvent} */ ({ event, data: JSON.parse(data) })),
      );
    },
  };
}

/**
 * The Content-Type a file is sent with: its own, as the browser knows it from its name (a .json
 * is application/json, a .zip application/zip, which Windows calls application/x-zip-compressed);
 * bytes when the browser does not know it (the server tells formats apart by their content).
 * @param {Blob} file
 */
function uploadType(file) {
  if (file.type === 'application/x-zip-compressed') return 'application/zip';
  return file.type || 'application/octet-stream';
}

/** @param {Response} response */
async function apiError(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (a proxy's page, for example): the status says enough
  }
  const retryAfter = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  return new ApiError(response.status, body, Number.isFinite(retryAfter) ? retryAfter : undefined);
}
