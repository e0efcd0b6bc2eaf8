// Shared helpers of the benchmark suite: paths, statistics, child processes, ports, memory.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import http from 'node:http';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(BENCH_DIR, '..');
export const DIST_MAIN = join(ROOT, 'dist', 'src', 'main.js');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

/** Every loopback request of the suite goes here, nowhere else. */
export const HOST = '127.0.0.1';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Percentile by linear interpolation between closest ranks; `p` in [0, 100]. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  if (sorted.length === 1) return sorted[0];
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** p50/p99/mean/min/max of raw samples (milliseconds or anything else). */
export function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : NaN,
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

/** Median and spread of one figure over repetitions. */
export function spread(values) {
  const sorted = [...values].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return {
    median: percentile(sorted, 50),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    runs: values,
  };
}

export function round(value, digits = 2) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A temp folder under the OS temp dir (a real disk here, so fsync costs what it costs). */
export function tempDir(tag) {
  const dir = mkdtempSync(join(os.tmpdir(), `chat-memory-bench-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

/** One HTTP request to 127.0.0.1; resolves with { status, body } (body parsed when JSON). */
export function request(port, method, path, body, timeoutMs = 10_000) {
  return new Promise((resolveReq, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: HOST,
        port,
        method,
        path,
        agent: false,
        timeout: timeoutMs,
        headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolveReq({ status: res.statusCode, body: parsed });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * Starts `node <script>` with `env` and waits until GET /health answers 200 (bounded).
 * Resolves with the child, its port, and the milliseconds from spawn to the first healthy answer.
 */
export async function startServer({ script, env = {}, nodeArgs = [], label, timeoutMs = 30_000, cwd = ROOT }) {
  const port = await freePort();
  const log = [];
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd,
    env: { ...cleanEnv(), ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    log.push(chunk.toString('utf8'));
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (exited) {
      throw new Error(
        `${label} exited before it was healthy (${JSON.stringify(exited)}):\n${log.join('').slice(-3000)}`,
      );
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label} was not healthy within ${timeoutMs} ms:\n${log.join('').slice(-3000)}`);
    }
    try {
      const res = await request(port, 'GET', '/health', undefined, 1000);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    await sleep(attempt < 200 ? 5 : 50);
  }
  const startupMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return {
    label,
    child,
    port,
    pid: child.pid,
    startupMs,
    log,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (exited) return exited;
      const done = new Promise((r) => child.once('exit', (code, sig) => r({ code, signal: sig })));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await done;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Awaits `promise`; a failure carries the end of the server's log, which usually says why. */
export async function withServerLog(server, promise) {
  try {
    return await promise;
  } catch (error) {
    error.message += `\n--- end of the ${server.label} log ---\n${server.log.join('').slice(-3000)}`;
    throw error;
  }
}

/** The parent's environment without anything that would change the server under test. */
export function cleanEnv() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^(API_KEYS|LLM_|OPENAI_|DATABASE_URL|PORT|HOST|HISTORY_WINDOW|SYSTEM_PROMPT|MAX_MESSAGE_CHARS|BODY_LIMIT_BYTES|SHUTDOWN_GRACE_MS|NODE_OPTIONS)/.test(
        name,
      )
    ) {
      delete env[name];
    }
  }
  return env;
}

/** Resident set and its peak of a Linux process, in MiB (undefined elsewhere). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
  } catch {
    return { rssMiB: undefined, peakRssMiB: undefined };
  }
}

/** Bytes this process passed to write() so far (Linux /proc/self/io `wchar`), or undefined. */
export function writtenBytes(pid = 'self') {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return Number(/^wchar:\s+(\d+)/m.exec(io)?.[1]);
  } catch {
    return undefined;
  }
}

export function fileSize(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    nproc: os.availableParallelism?.() ?? cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** Newest modification time of the .ts files under `dir` (to warn about a stale dist/). */
export function newestMtime(dir, ext = '.ts') {
  let newest = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(ext)) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  if (existsSync(dir)) walk(dir);
  return newest;
}

/** Runs `node <script> <args>` to completion, bounded in time; resolves with its exit code and output. */
export function runNode(script, args, { timeoutMs, nodeArgs = [], env = {} } = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      cwd: ROOT,
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      process.stdout.write(c);
    });
    child.stderr.on('data', (c) => {
      out += c;
      process.stderr.write(c);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, out });
    });
  });
}
