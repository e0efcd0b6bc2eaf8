// Preloaded into the server under test (`node --expose-gc --import heap-probe.mjs`): answers
// GET http://127.0.0.1:$HEAP_PROBE_PORT/ with the heap in use right after a full collection,
// the figure that shows a leak (RSS also holds what V8 keeps for reuse), and
// GET /snapshot?file=<path> by writing a heap snapshot there (bench only, never in the product).
import { createServer } from 'node:http';
import v8 from 'node:v8';

const port = Number(process.env.HEAP_PROBE_PORT);
if (port && typeof globalThis.gc === 'function') {
  const probe = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://probe');
    // Twice, with a turn of the event loop between: finalizers and weak references run in between.
    globalThis.gc();
    setImmediate(() => {
      globalThis.gc();
      const file = url.pathname === '/snapshot' ? url.searchParams.get('file') : null;
      if (file) v8.writeHeapSnapshot(file);
      const m = process.memoryUsage();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          heapUsed: m.heapUsed,
          heapTotal: m.heapTotal,
          rss: m.rss,
          external: m.external,
          arrayBuffers: m.arrayBuffers,
          file,
        }),
      );
    });
  });
  probe.listen(port, '127.0.0.1');
  probe.unref();
}

// LIVE_STREAMS_TRACE: the event loop's delay each second, on stderr (the bench prints it).
if (process.env.LIVE_STREAMS_TRACE) {
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    process.stderr.write(
      `[server] event loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms\n`,
    );
    delay.reset();
  }, 1000).unref();
}
