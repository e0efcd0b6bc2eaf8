import { DOMAIN_ERROR_CODES, type DomainErrorCode } from '../../common/domain-error.js';

/**
 * The code of an error answer that no domain error gave: a refusal of the HTTP surface itself
 * (validation, a missing key, an unknown route, a body of the wrong type...). Keyed by status,
 * so every status this surface answers has a code. Part of the API: never rename one.
 */
const HTTP_STATUS_CODES = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  417: 'expectation_failed',
  422: 'unprocessable',
  429: 'too_many_requests',
  431: 'headers_too_large',
  500: 'internal',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'timeout',
} as const satisfies Record<number, string>;

/**
 * Codes that never reach an error body: a stopped reply ends as `cancelled`; another actor's
 * conversation is answered as `conversation_not_found`.
 */
const NEVER_ANSWERED: readonly DomainErrorCode[] = ['model_cancelled', 'conversation_forbidden'];

/** Every `code` an error body of the REST API can carry, in the documented order. */
export const ERROR_BODY_CODES: readonly string[] = [
  ...new Set<string>([
    ...DOMAIN_ERROR_CODES.filter((code) => !NEVER_ANSWERED.includes(code)),
    ...Object.values(HTTP_STATUS_CODES),
  ]),
];

/** The code of an answer with this status when nothing more specific is known. */
export function codeOfStatus(status: number): string {
  return (HTTP_STATUS_CODES as Record<number, string>)[status] ?? (status >= 500 ? 'internal' : 'invalid_input');
}
