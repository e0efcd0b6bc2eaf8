/**
 * Patterns of the OpenAPI document for what the server refuses in any string (NUL, see
 * hardening/json-body-check.ts) and in texts that must say something (blank after trimming).
 * JavaScript's `\s` is the set `String.prototype.trim` removes.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
export const NOT_BLANK_PATTERN = '^[^\\u0000]*[^\\u0000\\s][^\\u0000]*$';
