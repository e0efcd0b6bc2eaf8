import type { Request } from 'express';

interface RouteLayer {
  readonly route?: { readonly path: unknown; readonly methods: Record<string, boolean> };
}

const patterns = new WeakMap<object, RegExp | null>();

/** An Express route path (`/api/conversations/:id`) as a regex; other forms (regexes, arrays) are skipped. */
function patternOf(route: { path: unknown }): RegExp | null {
  if (patterns.has(route)) return patterns.get(route) ?? null;
  const pattern =
    typeof route.path === 'string'
      ? new RegExp(
          `^${route.path
            .replace(/[.+?^$()|[\]\\]/g, '\\$&')
            .replace(/\/:\w+/g, '/[^/]+')
            .replace(/\*/g, '.*')}/?$`,
        )
      : null;
  patterns.set(route, pattern);
  return pattern;
}

/**
 * The methods the application's router answers on this request's path, read from the router
 * itself so every route counts (none to list by hand). Empty: the path does not exist.
 */
export function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !patternOf(layer.route)?.test(req.path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods))
      if (on && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
