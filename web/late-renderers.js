// @ts-check
// The reply renderers the page rarely needs, KaTeX (math) and highlight.js (code), are some
// 730 KB of script: they load the first time a reply needs one, not with the page. Until then
// math shows as its source and code as plain text; once one arrives, what was shown without it
// is drawn in place (onRendererLoaded, render.js's drawLate).

/** @type {Array<() => void>} */
const listeners = [];

/**
 * Runs `listener` each time a renderer has loaded: what was rendered without it can be again.
 * @param {() => void} listener
 */
export function onRendererLoaded(listener) {
  listeners.push(listener);
}

/**
 * A module loaded on first need: `get()` answers it once loaded, else starts loading it (once)
 * and answers null. A failed load (the network) is tried again at the next need.
 * @template T
 * @param {() => Promise<T>} load
 * @returns {{ get(): T | null }}
 */
export function lateModule(load) {
  /** @type {T | null} */
  let loaded = null;
  /** @type {Promise<void> | null} */
  let loading = null;
  return {
    get() {
      if (loaded !== null) return loaded;
      loading ??= load().then(
        (module) => {
          loaded = module;
          for (const listener of listeners) listener();
        },
        () => {
          loading = null;
        },
      );
      return null;
    },
  };
}
