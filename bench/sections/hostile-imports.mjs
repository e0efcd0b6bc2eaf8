// Opt-in section (--only=hostile-imports): archives made to be expensive, posted to POST /api/imports
// one at a time while GET /health is asked every 20 ms. For each: the answer (status, code, size),
// how long it took, and what /health saw meanwhile (answers, the longest wait: the longest stall of
// the event loop). The archives are generated here, a few kilobytes to a megabyte each.
import http from 'node:http';
import { join } from 'node:path';
import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { DIST_MAIN, HOST, round, sleep, startServer, tempDir, withServerLog } from '../lib/common.mjs';

/** `script` lets a run compare another build (e.g. the previous commit's dist/src/main.js). */
export async function hostileImports({ script = DIST_MAIN, quick = false } = {}) {
  const tmp = tempDir('hostile-imports');
  const server = await startServer({
    label: 'service',
    script,
    env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'imports.sqlite')}`, RATE_LIMIT_PER_MINUTE: '0' },
  });
  try {
    return await withServerLog(server, measure(server.port, quick));
  } finally {
    await server.stop();
    tmp.remove();
  }
}

async function measure(port, quick) {
  const results = {};
  for (const [name, build] of Object.entries(cases(quick))) {
    const { body, type } = await build();
    const polls = [];
    let running = true;
    const poll = (async () => {
      while (running) {
        const t0 = performance.now();
        const ok = await get(port, '/health').then(
          () => true,
          () => false,
        );
        polls.push({ ok, ms: performance.now() - t0 });
        await sleep(20);
      }
    })();
    const t0 = performance.now();
    const answer = await post(port, body, type);
    const ms = performance.now() - t0;
    running = false;
    await poll;
    results[name] = {
      bodyBytes: body.length,
      status: answer.status,
      code: answer.code,
      responseBytes: answer.bytes,
      ms: round(ms, 0),
      healthAnswers: polls.filter((p) => p.ok).length,
      healthMaxMs: round(Math.max(0, ...polls.map((p) => p.ms)), 0),
    };
  }
  return results;
}

const CONVERSATION_EXPORT = { format: 'chat-memory.conversation', version: 2, exportedAt: '2024-01-01T00:00:00.000Z' };

/** A valid ChatGPT conversation, so that the format is told and the rest is read. */
const chatGpt = {
  conversation_id: 'c1',
  title: 'one',
  create_time: 1,
  update_time: 1,
  current_node: 'b',
  mapping: {
    a: {
      id: 'a',
      parent: null,
      children: ['b'],
      message: { id: 'a', author: { role: 'user' }, content: { content_type: 'text', parts: ['hi'] }, create_time: 1 },
    },
    b: {
      id: 'b',
      parent: 'a',
      children: [],
      message: {
        id: 'b',
        author: { role: 'assistant' },
        content: { content_type: 'text', parts: ['hello'] },
        create_time: 2,
      },
    },
  },
};

function cases(quick) {
  const scale = quick ? 0.2 : 1;
  return {
    // Our account export whose conversations are each invalid, with long titles: one skipped entry each.
    ownTinyInvalidZip: async () => {
      const title = 'x'.repeat(2000);
      const items = Array.from({ length: Math.round(20_000 * scale) }, () => ({
        ...CONVERSATION_EXPORT,
        conversation: { title },
      }));
      return {
        body: zipSync({
          'export.json': strToU8(JSON.stringify({ format: 'chat-memory.account', version: 2, conversations: items })),
        }),
        type: 'application/zip',
      };
    },
    // The same as plain JSON, about 1.2 MB: every conversation is checked by the importer.
    ownJson: async () => {
      const items = Array.from({ length: Math.round(12_000 * scale) }, (_, i) => ({
        ...CONVERSATION_EXPORT,
        conversation: { title: `t${i}`, messages: [] },
      }));
      return {
        body: Buffer.from(JSON.stringify({ format: 'chat-memory.account', version: 2, conversations: items })),
        type: 'application/json',
      };
    },
    // conversations.json of "[" and spaces past the 1 GiB unzipped limit.
    whitespaceBomb: () =>
      deflatedStream('conversations.json', Math.round(1100 * scale), (i) =>
        i === 0 ? '[' + ' '.repeat(1024 * 1024 - 1) : ' '.repeat(1024 * 1024),
      ),
    // A valid ChatGPT conversation, then millions of tiny invalid ones.
    tinyConversationsZip: () =>
      deflatedStream(
        'conversations.json',
        Math.round(7 * scale),
        (i) => (i === 0 ? `[${JSON.stringify(chatGpt)}` : '') + ',{}'.repeat(1_000_000),
        ']',
      ),
  };
}

/** A ZIP of one deflated entry made of `parts` pieces of text (then `end`), compressed as it is generated. */
function deflatedStream(name, parts, piece, end = '') {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      chunks.push(data);
      if (final) resolve({ body: Buffer.concat(chunks), type: 'application/zip' });
    });
    const entry = new ZipDeflate(name, { level: 9 });
    zip.add(entry);
    for (let i = 0; i < parts; i++) entry.push(strToU8(piece(i)));
    entry.push(strToU8(end), true);
    zip.end();
  });
}

function get(port, path) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: HOST, port, path, agent: false, timeout: 120_000 }, (res) =>
      res.resume().on('end', resolve),
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

function post(port, payload, type) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: '/api/imports?dryRun=true',
        agent: false,
        headers: { 'content-type': type, 'content-length': payload.length },
      },
      (res) => {
        let bytes = 0;
        const head = [];
        res.on('data', (c) => {
          bytes += c.length;
          if (head.length < 4) head.push(c);
        });
        res.on('end', () => {
          const code = /"code":"([a-z_]+)"/.exec(Buffer.concat(head).toString('utf8').slice(0, 2000))?.[1] ?? null;
          resolve({ status: res.statusCode, code, bytes });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
