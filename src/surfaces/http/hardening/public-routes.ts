import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '../../../actor-auth/public.decorator.js';

/** Whether a request (method, path without query) goes to a route marked @Public(). */
type PublicRouteTest = (method: string, path: string) => boolean;

/**
 * The @Public() routes of the application, read from Nest's metadata once, so that a
 * middleware can tell before routing (and before the body is read) whether a request needs an
 * actor. Paths are matched like Express does by default: case-insensitive, an optional
 * trailing slash, `:param` for one segment, a wildcard for the rest.
 */
export function publicRoutes(app: INestApplication): PublicRouteTest {
  const reflector = app.get(Reflector);
  const scanner = new MetadataScanner();
  const routes: Array<{ method: RequestMethod; pattern: RegExp }> = [];
  for (const wrapper of new DiscoveryService(app.get(ModulesContainer)).getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
    if (!controller?.prototype) continue;
    const bases = paths(Reflect.getMetadata(PATH_METADATA, controller));
    for (const name of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
      const own = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (own === undefined || !reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller])) continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      for (const base of bases)
        for (const path of paths(own)) routes.push({ method, pattern: patternOf(`${base}/${path}`) });
    }
  }
  return (method, path) =>
    routes.some(
      (r) =>
        (r.method === RequestMethod.ALL ||
          RequestMethod[r.method] === method ||
          (method === 'HEAD' && r.method === RequestMethod.GET)) &&
        r.pattern.test(path),
    );
}

function paths(value: string | string[] | undefined): string[] {
  return value === undefined ? [''] : Array.isArray(value) ? value : [value];
}

function patternOf(path: string): RegExp {
  const segments = path.split('/').filter(Boolean);
  let source = '';
  for (const segment of segments) {
    if (segment.startsWith(':')) source += '/[^/]+';
    else if (/[*{(]/.test(segment)) return new RegExp(`^${source}(?:/.*)?$`, 'i');
    else source += `/${segment.replace(/[.+?^$|[\]\\]/g, '\\$&')}`;
  }
  return new RegExp(`^${source}/?$`, 'i');
}
