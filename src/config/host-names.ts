import { isIP } from 'node:net';

// A DNS name (letters, digits, "-", "." between labels, one optional trailing dot) or an IPv4
// address; or an IPv6 address in brackets. Anything else (userinfo, a path, spaces, "%") is no host.
const NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.?$/;
const HOST_AND_PORT = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/**
 * The host of a Host header (or of an origin's authority), normalized for comparison: lower case,
 * no port, no trailing dot, IPv6 without brackets and compressed (`::1`). Null when it is not a
 * well-formed host, e.g. IPv6 without brackets (`::1:3000` is ambiguous), an empty port or a path.
 */
export function normalizeHostPort(value: string): string | null {
  const match = HOST_AND_PORT.exec(value.toLowerCase());
  if (!match) return null;
  if (match[2] !== undefined && Number(match[2]) > 65535) return null;
  return normalizeHostName(match[1]);
}

/** A bare host name or address (IPv6 with or without brackets), normalized as above; null when malformed. */
export function normalizeHostName(value: string): string | null {
  const host = value.toLowerCase();
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 6) return new URL(`http://[${bare}]`).hostname.slice(1, -1);
  if (host !== bare || !NAME.test(host)) return null;
  return host.replace(/\.$/, '');
}

/** The normalized host of an `Origin` header, or null for `null`, a non-http(s) scheme or a malformed origin. */
export function originHostName(origin: string): string | null {
  const match = /^https?:\/\/(.+)$/i.exec(origin);
  return match ? normalizeHostPort(match[1]) : null;
}
