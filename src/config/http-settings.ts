import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import { normalizeHostName } from './host-names.js';

/** Whose X-Forwarded-For is believed: nobody's, a hop count, or proxy addresses and ranges. */
export type TrustProxy = false | number | readonly string[];

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Whose X-Forwarded-For to believe. Never "true" (believe anyone): then every client could
 * pick the address its failed authentications are counted under.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be from 1 to 10, got "${raw}"`);
    return hops;
  }
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    const [address, prefix, extra] = value.split('/');
    const family = isIP(address ?? '');
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!PROXY_NAMES.includes(value) && (family === 0 || !prefixOk || extra !== undefined)) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a hop count (1-10), or comma-separated proxy addresses (IP, IP/prefix, ${PROXY_NAMES.join(', ')}), got "${value}"`,
      );
    }
    return value;
  });
}

/** An http(s) URL without query or fragment: share links are built by appending `/s/<token>`. */
export function parsePublicBaseUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      `PUBLIC_BASE_URL must be an http(s) URL without query, fragment or credentials, like https://chat.example.com, got "${raw}"`,
    );
  }
  return url.toString().replace(/\/+$/, '');
}

/** CORS_ORIGINS: origins without a path, like https://app.example.com. */
export function parseOrigins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const origin = entry.trim().replace(/\/+$/, '');
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS entries must be origins like https://app.example.com, got "${entry.trim()}"`);
    }
    return origin;
  });
}

/** ALLOWED_HOSTS: host names or addresses, without scheme or port. */
export function parseAllowedHosts(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const host = normalizeHostName(entry.trim());
    if (!host) {
      throw new ConfigError(
        `ALLOWED_HOSTS entries must be host names or addresses without scheme or port, like chat.example.com, got "${entry.trim()}"`,
      );
    }
    return host;
  });
}
