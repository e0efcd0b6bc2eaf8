/** A bad environment value; the message names the variable so the operator can fix it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
