// Section 4: start-up time (spawn to a healthy GET /health) and memory after many turns.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_MAIN, memoryOf, sleep, spread, startServer, tempDir, withServerLog } from '../lib/common.mjs';
import { load, seedOverHttp, userMessage } from '../lib/load.mjs';

/** Median of several cold starts on a new file (migrations run) and on an existing, large one. */
export async function startup({ starts, existingDbPath }, log) {
  const tmp = tempDir('startup');
  try {
    const fresh = [];
    const existing = [];
    for (let i = 0; i < starts; i++) {
      const a = await startServer({
        label: 'service',
        script: DIST_MAIN,
        env: { DATABASE_URL: `sqlite:${join(tmp.dir, `fresh-${i}.sqlite`)}` },
      });
      fresh.push(a.startupMs);
      await a.stop();
      if (existingDbPath) {
        // A copy each time, so no start finds the file already in a state the last one left.
        const copy = join(tmp.dir, `existing-${i}.sqlite`);
        copyFileSync(existingDbPath, copy);
        const b = await startServer({ label: 'service', script: DIST_MAIN, env: { DATABASE_URL: `sqlite:${copy}` } });
        existing.push(b.startupMs);
        await b.stop();
      }
      log(
        `  start ${i + 1}/${starts}: new file ${fresh.at(-1).toFixed(0)} ms${existingDbPath ? `, existing file ${existing.at(-1).toFixed(0)} ms` : ''}`,
      );
    }
    return { freshMs: spread(fresh), existingMs: existingDbPath ? spread(existing) : null };
  } finally {
    tmp.remove();
  }
}

/**
 * RSS of the server process after `turns` chat turns over HTTP (autocannon amount mode,
 * stopped at `maxDurationS` whatever it reached), sampled once a second during the run.
 */
export async function memory({ turns, maxDurationS, connections, seedConversations, idleS }, log) {
  const tmp = tempDir('memory');
  const server = await startServer({
    label: 'service',
    script: DIST_MAIN,
    env: { DATABASE_URL: `sqlite:${join(tmp.dir, 'memory.sqlite')}` },
  });
  try {
    const ids = await withServerLog(server, seedOverHttp(server.port, { conversations: seedConversations, turns: 1 }));
    await sleep(1000);
    const idle = memoryOf(server.pid);
    let peak = idle.rssMiB;
    let done = 0;
    // RSS once a second, and the first sample past every tenth of the requested turns.
    const timeline = [];
    const marks = [];
    const step = Math.max(1, Math.round(turns / 10));
    const t0 = Date.now();
    const sampler = setInterval(() => {
      const m = memoryOf(server.pid);
      if (m.rssMiB > peak) peak = m.rssMiB;
      timeline.push({ s: Math.round((Date.now() - t0) / 1000), turns: done, rssMiB: m.rssMiB });
      if (done >= (marks.length + 1) * step) marks.push({ turns: done, rssMiB: m.rssMiB });
    }, 1000);
    let n = 0;
    log(`  ${turns} turns (stopped at ${maxDurationS} s at the latest), RSS at start ${idle.rssMiB?.toFixed(1)} MiB`);
    const run = await load({
      port: server.port,
      method: 'POST',
      path: '/api/chat',
      connections,
      amount: turns,
      maxDurationS,
      sampleLatency: false,
      onResponse: (status) => {
        if (status >= 200 && status < 300) done++;
      },
      body: (i) => ({ message: userMessage(n++), conversationId: ids[i % ids.length] }),
    });
    clearInterval(sampler);
    const after = memoryOf(server.pid);
    await sleep(idleS * 1000);
    const settled = memoryOf(server.pid);
    log(
      `  ${run.ok} turns in ${run.durationS.toFixed(1)} s (${run.perSecond.toFixed(0)}/s); RSS right after ${after.rssMiB?.toFixed(1)} MiB, ` +
        `after ${idleS} s idle ${settled.rssMiB?.toFixed(1)} MiB, peak ${after.peakRssMiB?.toFixed(1)} MiB`,
    );
    log(`  RSS along the run: ${marks.map((m) => `${m.turns}: ${m.rssMiB?.toFixed(0)} MiB`).join(', ')}`);
    return {
      turnsRequested: turns,
      turnsDone: run.ok,
      failures: run.non2xx + run.errors + run.timeouts,
      durationS: run.durationS,
      turnsPerS: run.perSecond,
      latencyP50Ms: run.latencyMs.p50,
      latencyP99Ms: run.latencyMs.p99,
      rssIdleBeforeMiB: idle.rssMiB,
      rssAfterMiB: after.rssMiB,
      rssAfterIdleMiB: settled.rssMiB,
      rssPeakSampledMiB: peak,
      rssPeakMiB: after.peakRssMiB,
      rssAtMarks: marks,
      timeline,
    };
  } finally {
    await server.stop();
    tmp.remove();
  }
}
