// Summarises a V8 .cpuprofile (from `npm run bench -- --profile`, or node --cpu-prof):
// self time by package, and the functions with the most self and inclusive time.
//
//   node bench/profile-summary.mjs bench/results/profiles/<file>.cpuprofile [--top=25] [--filter=text] [--from-ms=N | --last-ms=N]
//
// --from-ms skips the first N ms of the profile (start-up and seeding), leaving the load.
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top=25] [--filter=text] [--from-ms=N]');
  process.exit(2);
}
const top = Number(rest.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const filter = rest.find((a) => a.startsWith('--filter='))?.slice(9);
const profile = JSON.parse(readFileSync(file, 'utf8'));
// --last-ms=N keeps only the profile's last N ms (the load, when it ran last).
const lastMs = rest.find((a) => a.startsWith('--last-ms='))?.slice(10);
const fromUs = lastMs
  ? profile.endTime - profile.startTime - Number(lastMs) * 1000
  : Number(rest.find((a) => a.startsWith('--from-ms='))?.slice(10) ?? 0) * 1000;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const pkg = (url) => {
  if (!url) return '(native/vm)';
  // Under --profile each better-sqlite3 call runs inside this wrapper, so SQLite's own time shows here.
  if (url.endsWith('/lib/statement-timing.mjs')) return 'SQLite statements (bench/lib/statement-timing.mjs)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/src/')) return 'service (dist/src)';
  if (url.startsWith('node:')) return 'node:internal';
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
};
const key = (n) => {
  const f = n.callFrame;
  const where = f.url
    ? `${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${f.lineNumber + 1}`
    : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};

const self = new Map();
const inclusive = new Map();
const byPkg = new Map();
let total = 0;
let idle = 0;
let clock = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  clock += dt;
  if (clock < fromUs) continue;
  const node = byId.get(profile.samples[i]);
  total += dt;
  const name = node.callFrame.functionName;
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
    if (name === '(idle)') idle += dt;
  }
  self.set(key(node), (self.get(key(node)) ?? 0) + dt);
  const group = pkg(node.callFrame.url) + (name.startsWith('(') ? ` ${name}` : '');
  byPkg.set(group, (byPkg.get(group) ?? 0) + dt);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const k = key(byId.get(id));
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
  }
}
const busy = total - idle;
const pct = (v) => `${((100 * v) / busy).toFixed(1).padStart(5)} %`;
const show = (title, map) => {
  console.log(`\n${title} (share of busy time ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s)`);
  [...map]
    .filter(([k]) => !filter || k.includes(filter))
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, v]) => console.log(`  ${pct(v)}  ${k}`));
};
show('Self time by package', byPkg);
show('Self time by function', self);
show('Inclusive time by function', inclusive);
