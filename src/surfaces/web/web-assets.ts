import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the files of the web page are. Paths are found from this file, not from the working
 * directory, so that `npm start` (dist/src/surfaces/web/) and the tests (src/surfaces/web/)
 * serve the same folder: `web/` at the root of the repository.
 */
interface WebAssets {
  /** The folder served at `/` (index.html, app.js, css/base.css, ...). */
  readonly root: string;
  /** URL path under /vendor/ -> absolute path of a browser build in node_modules. */
  readonly vendor: ReadonlyMap<string, string>;
}

const here = dirname(fileURLToPath(import.meta.url));

export function findWebAssets(): WebAssets {
  const root = join(projectRoot(here), 'web');
  const require = createRequire(import.meta.url);
  // The ES module builds of the Markdown renderer, the sanitizer and the server-sent events
  // parser, served as they are installed (exact versions in package.json), with their source maps.
  const markedDir = dirname(require.resolve('marked')); // node_modules/marked/lib/marked.esm.js
  const purifyDir = dirname(require.resolve('dompurify')); // node_modules/dompurify/dist/purify.cjs.js
  const sseDir = dirname(require.resolve('eventsource-parser')); // node_modules/eventsource-parser/dist/index.cjs
  // highlight.js's own ES build with its common languages (its npm "highlight.js" package is CommonJS).
  const highlightDir = join(dirname(require.resolve('@highlightjs/cdn-assets/package.json')), 'es');
  const vendor = new Map<string, string>();
  for (const name of ['marked.esm.js', 'marked.esm.js.map']) vendor.set(name, join(markedDir, name));
  for (const name of ['purify.es.mjs', 'purify.es.mjs.map']) vendor.set(name, join(purifyDir, name));
  // In a folder of its own: its source map is named index.js.map.
  for (const name of ['index.js', 'index.js.map']) vendor.set(`eventsource-parser/${name}`, join(sseDir, name));
  vendor.set('highlight.min.js', join(highlightDir, 'highlight.min.js'));
  // KaTeX (math): its ES module, its style sheet and the fonts that sheet names (fonts/ beside it).
  const katexDir = join(dirname(require.resolve('katex/package.json')), 'dist');
  for (const name of ['katex.mjs', 'katex.min.css']) vendor.set(`katex/${name}`, join(katexDir, name));
  for (const font of readdirSync(join(katexDir, 'fonts')))
    vendor.set(`katex/fonts/${font}`, join(katexDir, 'fonts', font));
  return { root, vendor };
}

/** The nearest folder above `from` whose package.json is this project's. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'chat-memory') return dir;
    if (dirname(dir) === dir) throw new Error(`No chat-memory package.json above ${from}`);
  }
}
