// ESLint: the layering of src/ (docs/architecture.md, "Layers and the lint that guards them")
// plus a few TypeScript rules the code follows. Runs in `npm test` and as `npm run lint`.
//
// Every project import is relative with a `.js` suffix (nodenext), so the layer rules match the
// import specifier itself and need no module resolution. Two rules cost more and are worth it:
// import-x/no-cycle (resolves every import) and no-floating-promises (needs the type checker;
// a promise nobody awaits is an error nobody sees).
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'eslint/config';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const SURFACES = 'surfaces';
// The domain: modules that own a concept (and their tables). Absent folders cost nothing.
const DOMAIN = [
  'chat',
  'conversations',
  'portability',
  'agents',
  'context',
  'memory',
  'idempotency',
  'usage',
  'retention',
  'rate-limits',
  'telegram-inbox',
  'actor-auth',
  'metrics',
  'logging',
  'sharing',
  'recall',
  'oauth',
];
// Ports: the outer edges the domain leaves through. They import no domain module and no surface.
const PORTS = ['llm', 'database', 'config', 'common'];
const MODULES = [...DOMAIN, ...PORTS];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A relative specifier that climbs into one of these folders of src/ (`../chat/x.js`, `../../chat/x.js`);
// entering another top-level folder always starts with `../`, and package names never do.
const into = (names) => `^(\\.\\./)+(${names.map(escape).join('|')})/`;

/** The entity classes declared in a module's `*.entity.ts` files (read once, when the lint starts). */
function entityClasses(module) {
  const dir = path.join(import.meta.dirname, 'src', module);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.entity.ts'))
    .flatMap((file) =>
      [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/^export class (\w+)/gm)].map((m) => m[1]),
    );
}

/**
 * The restrictions, each with an id that an exception below can name.
 * `regex` ones feed @typescript-eslint/no-restricted-imports (matched against the specifier),
 * `selector` ones feed no-restricted-syntax (used where only some imported names are banned).
 */
function restrictionsFor(module) {
  const list = [];
  // TypeORM's deep paths are its internals: they move between versions without notice.
  list.push({
    id: 'typeorm-internals',
    regex: '^typeorm/',
    message: 'Import TypeORM by its package name only; its deep paths are internals.',
  });
  // The reply lifecycle has one home: whether a thread is busy is ReplyLease's to say, the room for messages ConversationLimits'.
  list.push({
    id: 'busy-rule',
    selector: "NewExpression[callee.name='ConversationBusyError']",
    message: 'Ask ReplyLease.assertIdle whether a thread is busy: the rule lives there only.',
  });
  if (module !== 'config') {
    list.push({
      id: 'message-limit',
      selector: "MemberExpression[property.name='maxMessagesPerConversation']",
      message:
        'Ask ConversationLimits for room for messages (MAX_MESSAGES_PER_CONVERSATION): the rule lives there only.',
    });
  }
  if (module !== SURFACES) {
    list.push({
      id: 'no-surface',
      regex: into([SURFACES]),
      message: 'Domain and ports never import a surface (surfaces -> domain -> ports).',
    });
  }
  // A driver's error becomes a StorageError once, in the database service: everything above it sees domain errors only.
  if (module !== 'database') {
    list.push({
      id: 'driver-errors',
      regex: `${into(['database'])}driver-errors\\.js$`,
      message:
        "Only database/ reads a driver's errors: DatabaseService raises StorageErrors (common/storage.errors.ts) in their place.",
    });
  }
  if (PORTS.includes(module)) {
    list.push({
      id: 'port-imports-domain',
      regex: into(DOMAIN),
      message: 'A port (llm, database, config, common) imports no domain module.',
    });
  }
  if (module === 'config') {
    list.push({
      id: 'config-imports-project',
      regex: `^\\.\\./(?!common/)`,
      message: 'config/ imports nothing of the project except common/.',
    });
  }
  for (const owner of MODULES.filter((m) => m !== module)) {
    list.push({
      id: `${owner}.repository`,
      regex: `${into([owner])}[^/]+\\.repository\\.js$`,
      message: `Only ${owner}/ uses its repositories: ask ${owner}/'s service instead (one owner per table).`,
    });
    const classes = entityClasses(owner);
    if (classes.length > 0) {
      // Types of another module's rows are fine; the class as a value is a query on its table.
      const source = `${into([owner])}[^/]+\\.entity\\.js$`.replaceAll('/', '\\x2F');
      list.push({
        id: `${owner}.entity`,
        selector: `ImportDeclaration[importKind='value'][source.value=/${source}/] > ImportSpecifier[importKind='value'][imported.name=/^(${classes.join('|')})$/]`,
        message: `${owner}/'s entity classes are imported only as types outside ${owner}/ (\`import type\`): querying a table is its owner's job.`,
      });
    }
  }
  return list;
}

/**
 * A file's rules from its module's restrictions, less the ids it is allowed (`*.entity` names
 * them all; `no-cycle` turns that rule off) and never matching the exact specifiers it is allowed (`imports`).
 */
function rulesFor(module, { allow = [], imports = [] } = {}) {
  const all = [...restrictionsFor(module), { id: 'no-cycle' }];
  const allowed = (id) => allow.some((a) => a === id || (a.startsWith('*.') && id.endsWith(a.slice(1))));
  const unknown = allow.filter((a) => !all.some((r) => allowed(r.id) && (a === r.id || a.startsWith('*.'))));
  if (unknown.length > 0) throw new Error(`eslint.config.js: no restriction ${unknown.join(', ')} for ${module}/`);
  const list = all.filter((r) => !allowed(r.id));
  const exact = imports.map(escape).join('|');
  const regex = (r) => (exact ? `^(?!(${exact})$)[\\s\\S]*?(?:${r})` : r);
  const notFrom = imports.map((spec) => `:not([source.value='${spec}'])`).join('');
  return {
    ...(allowed('no-cycle') ? { 'import-x/no-cycle': 'off' } : {}),
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: list
          .filter((r) => r.regex)
          .map((r) => ({ regex: regex(r.regex), caseSensitive: true, message: r.message })),
      },
    ],
    // A severity alone would keep the options of an earlier block: with nothing to restrict, turn it off.
    'no-restricted-syntax': list.some((r) => r.selector)
      ? [
          'error',
          ...list
            .filter((r) => r.selector)
            .map((r) => ({
              selector: r.selector.replace('ImportDeclaration', `ImportDeclaration${notFrom}`),
              message: r.message,
            })),
        ]
      : 'off',
  };
}

/** `src/chat/x.ts` -> chat, `src/surfaces/http/x.ts` -> surfaces. */
const moduleOf = (file) => file.split('/')[1];

/**
 * Imports the design allows, by file, each with its reason: `allow` names restrictions (ids above),
 * `imports` exact specifiers. Flat config replaces a rule's options, so each file gets one block
 * that re-states its module's rules less what it is allowed.
 */
const ALLOWED = [
  {
    file: 'src/chat/turn-store.ts',
    allow: ['conversations.repository'],
    reason: 'the turn writes conversation and message rows through the conversations repositories',
  },
  {
    file: 'src/chat/turn-history.ts',
    allow: ['conversations.repository'],
    reason:
      "a turn's plan reads the history, summary and pins in the turn's own transaction, through the conversations repositories",
  },
  {
    file: 'src/chat/message-pins.ts',
    allow: ['conversations.repository'],
    reason: 'pinning checks the next turn still fits and writes the flag in one transaction, as the turn does',
  },
  {
    file: 'src/chat/context-previews.ts',
    allow: ['conversations.repository'],
    reason: "a preview reads what a turn's plan reads, through the conversations repositories",
  },
  {
    file: 'src/chat/turn-inputs.ts',
    allow: ['conversations.repository'],
    reason: "a turn's inputs become drafts of the rows the conversations repositories append (NewMessage)",
  },
  {
    file: 'src/chat/reply-store.ts',
    allow: ['conversations.repository'],
    reason: "a reply's progress, lease and end are written through the conversations repositories",
  },
  {
    file: 'src/conversations/reply-lease.ts',
    allow: ['busy-rule'],
    reason: 'the one place that decides a thread is busy',
  },
  {
    file: 'src/conversations/conversation-limits.ts',
    allow: ['message-limit'],
    reason: 'the one place that applies MAX_MESSAGES_PER_CONVERSATION',
  },
  {
    file: 'src/chat/turn-store.ts',
    allow: ['busy-rule'],
    reason:
      'a first turn that loses the race for an alias to another is refused as busy: that other turn is the one running',
  },
  {
    file: 'src/surfaces/telegram/error-texts.spec.ts',
    allow: ['busy-rule'],
    reason: "checks the bot's text for a busy conversation",
  },
  {
    file: 'src/surfaces/http/hardening/json-shape.ts',
    allow: ['message-limit'],
    reason: "a request body's array bound follows the largest conversation an import may bring",
  },
  {
    file: 'src/database/database.service.ts',
    imports: ['../metrics/metrics.js'],
    reason: 'reports commit latency and queue depth to the (optional) Metrics observer',
  },
  {
    file: 'src/database/read-replicas.ts',
    imports: ['../metrics/metrics.js'],
    reason: "reports each replica's lag to the (optional) Metrics observer",
  },
  {
    file: 'src/config/app-config.spec.ts',
    imports: ['../portability/export-document.js'],
    reason: 'checks that the reply bound stays within what an import reads back',
  },
  // Repositories the conversations module exports for other modules' units of work: the SQL on its
  // tables stays in conversations/, and the caller's transaction (or batch) stays the caller's.
  {
    file: 'src/idempotency/idempotency.service.ts',
    allow: ['conversations.repository'],
    reason: "a key's claim reads, in its own transaction, whether the reply it points at is still live (replyLease)",
  },
  {
    file: 'src/usage/usage.service.ts',
    allow: ['conversations.repository'],
    reason: "token totals per model and day are a query on messages, MessageUsageRepository's",
  },
  {
    file: 'src/retention/retention.service.ts',
    allow: ['conversations.repository'],
    reason: 'deletes expired conversations in short batches through StaleConversationsRepository',
  },
  {
    file: 'src/retention/retention.service.spec.ts',
    allow: ['conversations.repository'],
    reason: 'drives the retention service with the real repository',
  },
  {
    file: 'src/recall/**/*.ts',
    allow: ['conversations.repository'],
    reason:
      "ranked search reads the caller's messages, titles and full-text indexes through MessageSearchRepository, and the conversations it found through ConversationsRepository",
  },
  {
    file: 'src/portability/**/*.ts',
    allow: ['conversations.repository'],
    reason:
      'export, import and fork read and write whole conversations (all of their rows, in one transaction) through the conversations repositories',
  },
];

/**
 * The folders of src/surfaces/. Protocol surfaces (http, openai, mcp, ui-stream, telegram, web, console, cli) import
 * none of each other: what several share lives in a neutral folder, which imports only the neutral folders listed
 * for it (so they form no cycle either). COMPOSITION, where the HTTP surfaces become one app, may import every
 * folder, and no folder imports it.
 */
const NEUTRAL_SURFACE_FOLDERS = {
  errors: [], // the common error body, the HTTP status of each domain code, the error filter, their OpenAPI docs
  requests: [], // request fields validated and documented alike, and a route's rate cost
  streaming: ['errors'], // the stream pipeline, event streams, the count of open streams
};
const COMPOSITION = 'app';
const SURFACES_DIR = path.join(import.meta.dirname, 'src', 'surfaces');

/** Throws when the neutral folders' allowed imports form a cycle: the lint would then allow a cycle. */
function assertNoNeutralCycle(graph) {
  const state = new Map();
  const visit = (folder, trail) => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open')
      throw new Error(`eslint.config.js: neutral surface folders in a cycle: ${[...trail, folder].join(' -> ')}`);
    state.set(folder, 'open');
    for (const next of graph[folder] ?? []) visit(next, [...trail, folder]);
    state.set(folder, 'done');
  };
  for (const folder of Object.keys(graph)) visit(folder, []);
}
assertNoNeutralCycle(NEUTRAL_SURFACE_FOLDERS);

/** Why an import from folder `from` into folder `to` of src/surfaces/ is refused, or null when it is allowed. */
function surfaceImportProblem(from, to) {
  if (from === to || from === COMPOSITION) return null;
  if (to === COMPOSITION)
    return `Nothing in src/surfaces/ imports ${COMPOSITION}/: it composes the surfaces, above them.`;
  const neutral = NEUTRAL_SURFACE_FOLDERS[from];
  if (to in NEUTRAL_SURFACE_FOLDERS) {
    if (!neutral || neutral.includes(to)) return null;
    const allowed = neutral.length ? `only ${neutral.map((f) => `${f}/`).join(', ')}` : 'no other surface folder';
    return `The neutral folder ${from}/ imports ${allowed} (NEUTRAL_SURFACE_FOLDERS), not ${to}/.`;
  }
  return neutral
    ? `The neutral folder ${from}/ imports no surface (${to}/): surfaces import it.`
    : `The ${from} surface imports no other surface (${to}/): move what both need to a neutral folder (NEUTRAL_SURFACE_FOLDERS).`;
}

/** The rule over every relative import (types included) of a file in src/surfaces/. */
const surfaceFolderImports = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(SURFACES_DIR, context.filename);
    if (file.startsWith('..') || !file.includes(path.sep)) return {};
    const from = file.split(path.sep)[0];
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.relative(SURFACES_DIR, path.resolve(path.dirname(context.filename), source.value));
      if (target.startsWith('..') || !target.includes(path.sep)) return;
      const problem = surfaceImportProblem(from, target.split(path.sep)[0]);
      if (problem) context.report({ node: source, message: problem });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/**
 * The names each module of web/ is imported by, from the other modules' `import { ... } from './x.js'`
 * (read once, when the lint starts): file name -> names.
 */
function webImports() {
  const dir = path.join(import.meta.dirname, 'web');
  const byFile = new Map();
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.js'))) {
    for (const [, names, from] of fs
      .readFileSync(path.join(dir, file), 'utf8')
      .matchAll(/^import\s*\{([^}]*)\}\s*from\s*'\.\/([^']+)'/gm)) {
      const set = byFile.get(from) ?? new Set();
      for (const name of names.split(',')) set.add(name.trim().split(/\s+as\s+/)[0]);
      byFile.set(from, set);
    }
  }
  return byFile;
}
const WEB_IMPORTS = webImports();

/**
 * An export of a web/ module that no other module imports is dead code the page still serves
 * (import-x/no-unused-modules cannot run under ESLint 10). `allow` names exports used from elsewhere.
 */
const webNoUnusedExport = {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: { allow: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const imported = WEB_IMPORTS.get(path.basename(context.filename)) ?? new Set();
    const allow = new Set(context.options[0]?.allow ?? []);
    const check = (id) => {
      if (id && !imported.has(id.name) && !allow.has(`${path.basename(context.filename)}:${id.name}`)) {
        context.report({
          node: id,
          message: `${id.name} is exported but no module of web/ imports it: drop the export (or the code).`,
        });
      }
    };
    return {
      'ExportNamedDeclaration > FunctionDeclaration, ExportNamedDeclaration > ClassDeclaration': (node) =>
        check(node.id),
      'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator': (node) => check(node.id),
      'ExportNamedDeclaration > ExportSpecifier': (node) => check(node.exported),
    };
  },
};
export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'clients/**', 'web/types/**', 'bench/**', 'coverage/**', '*.js', '*.mjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      // Nest injects by constructor types: with decorator metadata, consistent-type-imports leaves decorated files alone.
      parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Tests may use `any` for wire payloads they poke at; the product may not.
  { files: ['src/**/*.ts', 'scripts/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  // A file past 400 lines holds more than one concern: split it by concern, with names that say which.
  // Lines as the file has them, comments and blank lines included. Specs are left out: a spec's
  // length follows the cases of what it tests.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'ormconfig.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    // Type-only imports (entities pointing at each other through Relation<T>) are no cycle at run time.
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The service runs from a production install (`npm ci --omit=dev`): what src/ imports at run time
  // is a package of `dependencies`. Types may come from development packages (the erased imports).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, optionalDependencies: false, peerDependencies: false, includeTypes: false },
      ],
    },
  },
  // The web page's ES modules (browser JavaScript, type-checked by web/tsconfig.json): the rules of src/ that
  // apply to them, and no export that no module imports. Its libraries come from /vendor/, served from
  // node_modules (web/types/vendor/ holds their types), so those imports are not followed.
  {
    files: ['web/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX, web: { rules: { 'no-unused-export': webNoUnusedExport } } },
    settings: { 'import-x/ignore': ['/vendor/'], 'import-x/resolver-next': [createNodeResolver()] },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // sanitize: test/e2e/web/web.e2e-spec.ts imports it in the page, to try the sanitizer on its own.
      'web/no-unused-export': ['error', { allow: ['render.js:sanitize'] }],
    },
  },
  {
    files: ['src/surfaces/**/*.ts'],
    plugins: { surfaces: { rules: { 'folder-imports': surfaceFolderImports } } },
    rules: { 'surfaces/folder-imports': 'error' },
  },
  ...[...MODULES, SURFACES].map((module) => ({
    files: [module === SURFACES ? 'src/surfaces/**/*.ts' : `src/${module}/**/*.ts`],
    rules: rulesFor(module),
  })),
  ...mergeByFile(ALLOWED).map(({ file, ...options }) => ({ files: [file], rules: rulesFor(moduleOf(file), options) })),
);

/**
 * One block per file, with the union of its entries. A folder entry (a `file` ending in the any-depth `.ts` glob) also counts for
 * each single file under it that has entries of its own, since that file's block comes later and wins.
 */
function mergeByFile(entries) {
  const folder = (file) => (file.endsWith('/**/*.ts') ? file.slice(0, -'**/*.ts'.length) : null);
  const byFile = new Map();
  for (const { file, allow = [], imports = [] } of entries) {
    const seen = byFile.get(file) ?? { allow: [], imports: [] };
    byFile.set(file, { allow: [...seen.allow, ...allow], imports: [...seen.imports, ...imports] });
  }
  const folders = [...byFile].filter(([file]) => folder(file));
  for (const [file, options] of byFile) {
    for (const [other, more] of folders) {
      if (other !== file && file.startsWith(folder(other))) {
        options.allow.push(...more.allow);
        options.imports.push(...more.imports);
      }
    }
  }
  // Folders first, so that a single file's block comes after its folder's.
  return [...byFile]
    .sort(([a], [b]) => Number(!folder(a)) - Number(!folder(b)))
    .map(([file, options]) => ({ file, ...options }));
}
