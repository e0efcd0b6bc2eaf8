// The service's HTTP API as this page uses it: JSON routes, and the streaming routes read as
// server-sent events with fetch (EventSource can send neither a body nor a header). URLs are
// relative: the page and the API are served by the same service.

/** An answer with an error status: `body` is the service's `{ statusCode, error, message, ... }`. */
export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(body?.message || `The server answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
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

/** `getKey()` returns the API key to send, or null (single-user mode needs none). */
export function createApi(getKey) {
  async function request(method, path, { body, signal, key = getKey() } = {}) {
    const headers = {};
    if (key) headers.Authorization = `Bearer ${key}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new NetworkError();
    }
    if (!response.ok) throw await apiError(response);
    return response;
  }

  return {
    /** A JSON route: resolves with the parsed body (null for 204). */
    async json(method, path, body, options = {}) {
      const response = await request(method, path, { ...options, body });
      return response.status === 204 ? null : response.json();
    },

    /**
     * A streaming route: calls onEvent(name, data) for every event until the server ends the
     * stream. Errors found before the stream starts reject with an ApiError (JSON body).
     */
    async stream(method, path, body, { signal, onEvent }) {
      const response = await request(method, path, { body, signal });
      await readEvents(response, onEvent);
    },
  };
}

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

/** Calls onEvent(name, data) for every event of a text/event-stream response. */
export async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) { // an event ends with a blank line
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
        // other lines, such as the ": keep-alive" comments, are ignored
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}
