/** The grammY Bot of the surface (one per process). */
export const TELEGRAM_BOT = Symbol('TELEGRAM_BOT');

/** The `telegram` section of AppConfig, present whenever this module is loaded. */
export const TELEGRAM_CONFIG = Symbol('TELEGRAM_CONFIG');
