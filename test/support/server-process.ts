import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's folder. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The compiled server, built by `npm run build` (test/run-all.sh builds it before Jest runs). */
export const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');

/** How a server process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The built server running as a child process on 127.0.0.1. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ProcessExit>;
  /** What the process printed so far (stdout and stderr, the last 200 KB). */
  output(): string;
  /** Sends `signal` and waits (up to `timeoutMs`, then SIGKILL) for the process to exit. */
  stop(signal: NodeJS.Signals, timeoutMs?: number): Promise<ProcessExit>;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node dist/src/main.js` (the project's, or that of the install at `root`) with only the
 * given environment (plus PATH and HOME), on 127.0.0.1 and a free port, and waits until /health
 * answers 200. Fails with the process's output if it exits first or is not healthy within
 * `readyTimeoutMs`.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  /** Another installation of the built server (its dist/, web/ and node_modules/). */
  root = ROOT,
): Promise<ServerProcess> {
  const main = join(root, 'dist', 'src', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first (npm test does)`);
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NODE_OPTIONS: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    child,
    url,
    exited,
    output: () => log,
    async stop(signal, timeoutMs = 30_000) {
      if (!hasExited) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (hasExited) throw new Error(`The server exited before it was ready:\n${log}`);
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return server;
      await res.arrayBuffer();
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop('SIGKILL');
      throw new Error(`The server was not healthy within ${readyTimeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
