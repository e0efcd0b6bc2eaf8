// Preloaded into the server under test (`node --expose-gc --import heap-probe.mjs`): answers
// GET http://127.0.0.1:$HEAP_PROBE_PORT/ with the heap in use right after a full collection,
// the figure that shows a leak (RSS also holds what V8 keeps for reuse).
import { createServer } from 'node:http';

const port = Number(process.env.HEAP_PROBE_PORT);
if (port && typeof globalThis.gc === 'function') {
  const probe = createServer((_req, res) => {
    // Twice, with a turn of the event loop between: finalizers and weak references run in between.
    globalThis.gc();
    setImmediate(() => {
      globalThis.gc();
      const m = process.memoryUsage();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss, external: m.external }));
    });
  });
  probe.listen(port, '127.0.0.1');
  probe.unref();
}
