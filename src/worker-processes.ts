import cluster, { type Worker } from 'node:cluster';
import { Logger } from '@nestjs/common';

/** Exit code of a worker refused by its configuration (EX_CONFIG): starting another would meet the same. */
const CONFIG_EXIT = 78;

/**
 * WORKERS > 1 (PostgreSQL only): this process forks that many workers and serves nothing itself.
 * Each worker is a whole instance of the service; they share the port, whose connections this
 * process hands out in turn, and nothing else but the database, as instances on several machines
 * do (a reply streams from the worker that generates it, its followers on any other are woken
 * by NOTIFY). A worker that dies once it listened is replaced; one that cannot start stops them
 * all. SIGTERM or SIGINT stops the workers (each finishes its turns in flight), then this process.
 */
export function runWorkers(count: number): void {
  const logger = new Logger('Workers');
  const listening = new Set<number>();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (code: number) => {
    exitCode ||= code;
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  cluster.on('listening', (worker: Worker) => listening.add(worker.id));
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const started = listening.delete(worker.id);
    if (!stopping && started && code !== CONFIG_EXIT) {
      logger.error(`Worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
      cluster.fork();
      return;
    }
    // A worker that could not start (a taken port, a configuration error, the database) stops the others.
    if (!stopping) stopAll(code || 1);
    else if (code) exitCode ||= code;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      logger.log(`Received ${signal}: stopping ${count} workers (replies being generated finish first)`);
      stopAll(0);
    });
  }
  for (let i = 0; i < count; i++) cluster.fork();
  logger.log(`Started ${count} workers sharing the port`);
}
