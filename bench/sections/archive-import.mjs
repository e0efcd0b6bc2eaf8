// A large ChatGPT archive through POST /api/imports, as JSON and as a ZIP: a generated
// conversations.json (branches, hidden context nodes, code runs, images), each upload to a fresh
// built server on SQLite. Reports the import time, MB/s, conversations and messages per second,
// the server's peak RSS (sampled from /proc every 100 ms, and VmHWM), and what a client asking
// GET /health every 50 ms saw meanwhile (the longest answer is the longest stall of the event loop).
// Standalone: `node bench/sections/archive-import.mjs [--quick]`
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Zip, ZipDeflate } from 'fflate';
import {
  DIST_MAIN,
  HOST,
  memoryOf,
  percentile,
  request,
  ROOT,
  round,
  sleep,
  startServer,
  tempDir,
} from '../lib/common.mjs';

const { chatGptConversation } = await import(
  pathToFileURL(join(ROOT, 'dist', 'src', 'portability', 'archives', 'archive-builders.js')).href
);

const WORDS =
  'the quick brown fox jumps over a lazy dog while memory streams tokens into branches of long conversations'.split(
    ' ',
  );

/** About `bytes` of words, varied by `seed` so that the archive does not compress absurdly well. */
function prose(seed, bytes) {
  let s = seed >>> 0;
  const out = [];
  let n = 0;
  while (n < bytes) {
    s = (s * 1103515245 + 12345) >>> 0;
    const w = WORDS[s % WORDS.length] + (s % 7 === 0 ? `${s % 1000}` : '');
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

/**
 * One conversation of about `textBytes` of text: custom instructions and a hidden system node, a
 * chain of turns, an edited question with its own answer, a regenerated answer, a code run with
 * its output, and an image part (counted, not stored).
 */
function conversation(i, turns, textBytes) {
  const each = Math.max(20, Math.floor(textBytes / (2 * turns + 4)));
  const t0 = 1_690_000_000 + i * 600;
  const nodes = [
    ['root', null, null],
    ['sys', 'root', { role: 'system', text: '', hidden: true }],
    [
      'ctx',
      'sys',
      {
        role: 'user',
        hidden: true,
        content: {
          content_type: 'user_editable_context',
          user_profile: 'I write software.',
          user_instructions: 'Be concise.',
        },
      },
    ],
  ];
  let parent = 'ctx';
  for (let t = 0; t < turns; t++) {
    nodes.push([`u${t}`, parent, { role: 'user', text: prose(i * 1000 + t, each), time: t0 + t * 20 }]);
    if (t === 1) {
      // Code run: the assistant's call, the tool's output, then the reply.
      nodes.push([
        `c${t}`,
        `u${t}`,
        {
          role: 'assistant',
          recipient: 'python',
          content: { content_type: 'code', language: 'python', text: 'print(6 * 7)' },
          time: t0 + t * 20 + 1,
        },
      ]);
      nodes.push([
        `o${t}`,
        `c${t}`,
        { role: 'tool', content: { content_type: 'execution_output', text: '42' }, time: t0 + t * 20 + 2 },
      ]);
      nodes.push([
        `a${t}`,
        `o${t}`,
        { role: 'assistant', text: prose(i * 1000 + t + 500, each), time: t0 + t * 20 + 3, model: 'gpt-4o' },
      ]);
    } else if (t === 2) {
      nodes.push([
        `a${t}`,
        `u${t}`,
        {
          role: 'assistant',
          content: {
            content_type: 'multimodal_text',
            parts: [
              { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-1' },
              prose(i + t, each),
            ],
          },
          time: t0 + t * 20 + 3,
          model: 'gpt-4o',
        },
      ]);
    } else {
      nodes.push([
        `a${t}`,
        `u${t}`,
        { role: 'assistant', text: prose(i * 1000 + t + 500, each), time: t0 + t * 20 + 3, model: 'gpt-4o' },
      ]);
    }
    parent = `a${t}`;
  }
  // A regenerated last answer (a sibling) and an edited second question with its answer (a branch).
  const last = turns - 1;
  nodes.push([
    `a${last}r`,
    `u${last}`,
    { role: 'assistant', text: prose(i + 77, each), time: t0 + last * 20 + 9, model: 'o1' },
  ]);
  nodes.push(['u1e', 'a0', { role: 'user', text: prose(i + 88, each), time: t0 + 999 }]);
  nodes.push(['a1e', 'u1e', { role: 'assistant', text: prose(i + 99, each), time: t0 + 1000, model: 'gpt-4o' }]);
  return chatGptConversation({
    id: `bench-${i}`,
    title: `Bench conversation ${i}`,
    createTime: t0,
    updateTime: t0 + 1000,
    currentNode: `a${last}`,
    nodes,
  });
}

async function writeArchive(path, conversations, bytesEach) {
  const out = createWriteStream(path);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('[');
  for (let i = 0; i < conversations; i++) await write((i ? ',' : '') + JSON.stringify(conversation(i, 12, bytesEach)));
  await write(']');
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

/** The JSON file zipped as ChatGPT ships it (a folder, side files), written as a stream. */
async function writeZip(jsonPath, zipPath) {
  const out = createWriteStream(zipPath);
  const pending = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    pending.push(data);
  });
  const flush = async () => {
    while (pending.length) if (!out.write(pending.shift())) await once(out, 'drain');
  };
  const side = new ZipDeflate('export/user.json', { level: 6 });
  zip.add(side);
  side.push(Buffer.from('{"id":"user-bench","email":"bench@example.com"}'), true);
  const entry = new ZipDeflate('export/conversations.json', { level: 6 });
  zip.add(entry);
  for await (const chunk of createReadStream(jsonPath, { highWaterMark: 256 * 1024 })) {
    entry.push(chunk, false);
    await flush();
  }
  entry.push(new Uint8Array(0), true);
  zip.end();
  await flush();
  out.end();
  await once(out, 'finish');
  return statSync(zipPath).size;
}

/** GET /health every `everyMs` on one kept-alive connection; the latencies, until stopped. */
function probe(port, everyMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let failures = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      await new Promise((done) => {
        const req = http.get({ host: HOST, port, path: '/health', agent, timeout: 30_000 }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) failures += 1;
            done();
          });
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => {
          failures += 1;
          done();
        });
      });
      const took = performance.now() - t0;
      latencies.push(took);
      await sleep(Math.max(0, everyMs - took));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      agent.destroy();
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        probes: sorted.length,
        failures,
        maxMs: sorted.at(-1) ?? NaN,
        p99Ms: percentile(sorted, 99),
        p50Ms: percentile(sorted, 50),
      };
    },
  };
}

function upload(port, path, type, timeoutMs) {
  return new Promise((resolveUpload, reject) => {
    const size = statSync(path).size;
    const req = http.request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: '/api/imports',
        agent: false,
        timeout: timeoutMs,
        headers: { 'content-type': type, 'content-length': size },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200)
            return reject(new Error(`POST /api/imports answered ${res.statusCode}: ${text.slice(0, 500)}`));
          resolveUpload(JSON.parse(text));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`the import did not finish within ${timeoutMs} ms`)));
    req.on('error', reject);
    createReadStream(path).pipe(req);
  });
}

async function importOnce({ label, file, type, bytes, timeoutMs, dir }, log) {
  const server = await startServer({
    label: `service (${label})`,
    script: DIST_MAIN,
    env: {
      DATABASE_URL: `sqlite:${join(dir, `${label}.sqlite`)}`,
      LLM_MODEL: 'echo',
      SUMMARY_MODE: 'off',
      IMPORT_BODY_LIMIT_BYTES: String(1024 * 1024 * 1024),
      MAX_CONVERSATIONS_PER_ACTOR: '0',
    },
  });
  try {
    await sleep(500);
    // The same probe with nothing else to do: what the machine alone costs a /health answer.
    const idleProbe = probe(server.port, 50);
    await sleep(3000);
    const idle = await idleProbe.stop();
    const rssStart = memoryOf(server.pid).rssMiB;
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, memoryOf(server.pid).rssMiB ?? 0)), 100);
    const health = probe(server.port, 50);
    const t0 = performance.now();
    let report;
    try {
      report = await upload(server.port, file, type, timeoutMs);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - t0) / 1000;
    // On SQLite the messages reach the search index in batches after the import answers; a
    // search waits for them, so this one answers once every imported message is searchable.
    const s0 = performance.now();
    const searched = await request(server.port, 'GET', '/api/search?q=question', undefined, timeoutMs);
    if (searched.status !== 200) throw new Error(`GET /api/search answered ${searched.status}`);
    const searchableAfterS = (performance.now() - s0) / 1000;
    const probes = await health.stop();
    const hwm = memoryOf(server.pid).peakRssMiB;
    const messages = report.imported.reduce((n, c) => n + c.messages, 0);
    const result = {
      label,
      uploadMB: round(bytes / 1e6, 1),
      seconds: round(seconds, 1),
      searchableAfterS: round(searchableAfterS, 2),
      mbPerS: round(bytes / 1e6 / seconds, 2),
      conversations: report.imported.length,
      skipped: report.skipped.length,
      messages,
      conversationsPerS: round(report.imported.length / seconds, 0),
      messagesPerS: round(messages / seconds, 0),
      rssStartMiB: round(rssStart, 0),
      rssPeakSampledMiB: round(rssPeak, 0),
      vmHwmMiB: round(hwm, 0),
      health: {
        probes: probes.probes,
        failures: probes.failures,
        p50Ms: round(probes.p50Ms, 1),
        p99Ms: round(probes.p99Ms, 1),
        maxMs: round(probes.maxMs, 1),
      },
      idleHealth: {
        probes: idle.probes,
        p50Ms: round(idle.p50Ms, 1),
        p99Ms: round(idle.p99Ms, 1),
        maxMs: round(idle.maxMs, 1),
      },
    };
    log(
      `  ${label}: ${result.uploadMB} MB in ${result.seconds} s (${result.mbPerS} MB/s), ${result.conversations} conversations (${result.conversationsPerS}/s), ` +
        `${messages} messages (${result.messagesPerS}/s), ${result.skipped} skipped, all searchable ${result.searchableAfterS} s later; RSS ${result.rssStartMiB} -> peak ${result.rssPeakSampledMiB} MiB (VmHWM ${result.vmHwmMiB}); ` +
        `GET /health every 50 ms: ${probes.probes} probes, p99 ${result.health.p99Ms} ms, max ${result.health.maxMs} ms, ${probes.failures} failed ` +
        `(idle server before: p99 ${result.idleHealth.p99Ms} ms, max ${result.idleHealth.maxMs} ms)`,
    );
    return result;
  } finally {
    await server.stop();
  }
}

export async function archiveImport(
  { conversations = 5000, bytesEach = 9_500, timeoutMs = 900_000 } = {},
  log = console.log,
) {
  const tmp = tempDir('archive');
  try {
    const jsonPath = join(tmp.dir, 'conversations.json');
    const t0 = performance.now();
    const jsonBytes = await writeArchive(jsonPath, conversations, bytesEach);
    const zipPath = join(tmp.dir, 'chatgpt-export.zip');
    const zipBytes = await writeZip(jsonPath, zipPath);
    log(
      `  generated ${conversations} conversations: ${round(jsonBytes / 1e6, 1)} MB of JSON, ${round(zipBytes / 1e6, 1)} MB zipped (${round((performance.now() - t0) / 1000, 1)} s)`,
    );
    const json = await importOnce(
      { label: 'json', file: jsonPath, type: 'application/json', bytes: jsonBytes, timeoutMs, dir: tmp.dir },
      log,
    );
    const zip = await importOnce(
      { label: 'zip', file: zipPath, type: 'application/zip', bytes: zipBytes, timeoutMs, dir: tmp.dir },
      log,
    );
    zip.unzippedMB = round(jsonBytes / 1e6, 1);
    zip.unzippedMbPerS = round(jsonBytes / 1e6 / zip.seconds, 2);
    return { conversations, jsonMB: round(jsonBytes / 1e6, 1), zipMB: round(zipBytes / 1e6, 1), json, zip };
  } finally {
    tmp.remove();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const quick = process.argv.includes('--quick');
  console.log(JSON.stringify(await archiveImport(quick ? { conversations: 500, timeoutMs: 300_000 } : {}), null, 2));
}
