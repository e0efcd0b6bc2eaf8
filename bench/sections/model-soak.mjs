// Section 5: a soak against an OpenAI-compatible model (a fake one on 127.0.0.1, through the
// real SDK): the heap of the server after a full GC at `firstTurns` and again at `totalTurns`
// chat turns. A per-call leak (such as Node 20's AbortSignal.any keeping every signal) shows
// as growth between the two; the echo model never makes a model call, so it cannot show it.
import { join } from 'node:path';
import { BENCH_DIR, DIST_MAIN, freePort, request, round, startServer, tempDir, withServerLog } from '../lib/common.mjs';
import { startFakeOpenAi } from '../lib/fake-openai.mjs';
import { load, seedOverHttp, userMessage } from '../lib/load.mjs';

export async function modelSoak({ firstTurns, totalTurns, connections, seedConversations, maxDurationS }, log) {
  const tmp = tempDir('soak');
  const model = await startFakeOpenAi();
  const probePort = await freePort();
  const server = await startServer({
    label: 'service',
    script: DIST_MAIN,
    nodeArgs: ['--expose-gc', '--import', join(BENCH_DIR, 'lib', 'heap-probe.mjs')],
    env: {
      DATABASE_URL: `sqlite:${join(tmp.dir, 'soak.sqlite')}`,
      LLM_BASE_URL: model.url,
      LLM_API_KEY: 'bench',
      LLM_MODEL: 'bench-model',
      SUMMARY_MODE: 'off',
      HEAP_PROBE_PORT: String(probePort),
    },
  });
  try {
    const heapMiB = async () => (await request(probePort, 'GET', '/', undefined, 30_000)).body.heapUsed / 1024 / 1024;
    const ids = await withServerLog(server, seedOverHttp(server.port, { conversations: seedConversations, turns: 1 }));
    let n = 0;
    let failures = 0;
    const turns = (amount) =>
      load({
        port: server.port,
        method: 'POST',
        path: '/api/chat',
        connections,
        amount,
        maxDurationS,
        sampleLatency: false,
        body: (i) => ({ message: userMessage(n++), conversationId: ids[i % ids.length] }),
      }).then((r) => {
        failures += r.non2xx + r.errors + r.timeouts;
        return r;
      });
    const heapStart = await heapMiB();
    const first = await withServerLog(server, turns(firstTurns));
    const heapFirst = await heapMiB();
    log(
      `  ${first.ok} turns (${first.perSecond.toFixed(0)}/s); heap after GC ${heapStart.toFixed(1)} -> ${heapFirst.toFixed(1)} MiB`,
    );
    const rest = await withServerLog(server, turns(totalTurns - firstTurns));
    const heapTotal = await heapMiB();
    const done = first.ok + rest.ok;
    const growth = (heapTotal - heapFirst) / heapFirst;
    log(
      `  ${done} turns in all (${rest.perSecond.toFixed(0)}/s); heap after GC ${heapTotal.toFixed(1)} MiB: ` +
        `${(growth * 100).toFixed(1)} % over the ${first.ok} first turns`,
    );
    return {
      firstTurns: first.ok,
      totalTurns: done,
      failures,
      turnsPerS: rest.perSecond,
      heapAfterGcStartMiB: round(heapStart, 2),
      heapAfterGcFirstMiB: round(heapFirst, 2),
      heapAfterGcTotalMiB: round(heapTotal, 2),
      growth: round(growth, 4),
      bytesPerTurn: round(((heapTotal - heapFirst) * 1024 * 1024) / Math.max(1, done - first.ok), 1),
    };
  } finally {
    await server.stop();
    await model.close();
    tmp.remove();
  }
}
