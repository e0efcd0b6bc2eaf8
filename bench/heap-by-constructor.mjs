// Compares two heap snapshots of the server (bench/sections/live-streams.mjs --snapshot-dir):
// bytes and counts by constructor (V8's node type and name), the second minus the first, per
// live stream. `node bench/heap-by-constructor.mjs <idle.heapsnapshot> <live.heapsnapshot> <live streams> [top]`
import { readFileSync } from 'node:fs';

/** Self size and count of every node, grouped by "type name" (objects by constructor, strings as one group). */
function byConstructor(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const typeNames = types[0];
  const groups = new Map();
  const nodes = snapshot.nodes;
  for (let i = 0; i < nodes.length; i += width) {
    const type = typeNames[nodes[i + typeAt]];
    // Strings, numbers and code are grouped by type: their names are their contents.
    const name = ['string', 'concatenated string', 'sliced string', 'number', 'code', 'hidden'].includes(type)
      ? ''
      : snapshot.strings[nodes[i + nameAt]];
    const key = `${type} ${name.length > 60 ? `${name.slice(0, 60)}…` : name}`;
    const g = groups.get(key) ?? { bytes: 0, count: 0 };
    g.bytes += nodes[i + sizeAt];
    g.count += 1;
    groups.set(key, g);
  }
  return groups;
}

const [idleFile, liveFile, liveArg, topArg] = process.argv.slice(2);
const live = Number(liveArg);
const top = Number(topArg ?? 40);
const a = byConstructor(idleFile);
const b = byConstructor(liveFile);
const rows = [];
let total = 0;
for (const key of new Set([...a.keys(), ...b.keys()])) {
  const bytes = (b.get(key)?.bytes ?? 0) - (a.get(key)?.bytes ?? 0);
  const count = (b.get(key)?.count ?? 0) - (a.get(key)?.count ?? 0);
  total += bytes;
  rows.push({ key, bytes, count });
}
rows.sort((x, y) => y.bytes - x.bytes);
console.log(`total: ${(total / live / 1024).toFixed(1)} KiB per live stream (${live} live)`);
console.log('bytes/stream  objects/stream  type constructor');
for (const r of rows.slice(0, top))
  console.log(`${(r.bytes / live).toFixed(0).padStart(12)}  ${(r.count / live).toFixed(1).padStart(14)}  ${r.key}`);
