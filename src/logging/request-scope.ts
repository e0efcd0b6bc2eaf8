import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving a request says about it. */
interface RequestScope {
  readonly requestId: string;
  /** The actor, once authentication has found one (read when a line is written). */
  actor(): string | undefined;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (the rest of a request's handling) with `scope` visible to the logger. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}
