import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import type { DatabaseService } from '../database/database.service.js';
import type { StaleConversationsRepository } from '../conversations/stale-conversations.repository.js';
import type { MemoryService } from '../memory/memory.service.js';
import {
  RETENTION_BATCH,
  RETENTION_FIRST_RUN_MS,
  RETENTION_INTERVAL_MS,
  RetentionService,
} from './retention.service.js';

/** A repository over an in-memory list of stale ids, and a database that runs each unit at once. */
function setUp(retentionDays: number | null, stale: number, staleMemories = 0) {
  let left = stale;
  const units: number[] = [];
  const repo = {
    staleIds: jest.fn(async (_em: unknown, _cutoff: Date, limit: number) =>
      Array.from({ length: Math.min(limit, left) }, (_, i) => `id-${i}`),
    ),
    countMessages: jest.fn(async (_em: unknown, ids: string[]) => ids.length * 2),
    deleteStale: jest.fn(async (_em: unknown, ids: string[]) => {
      left -= ids.length;
      units.push(ids.length);
      return ids.length;
    }),
  };
  const db = { transaction: (work: (em: unknown) => Promise<unknown>) => work({}) };
  let memoriesLeft = staleMemories;
  const memories = {
    deleteStale: jest.fn(async (_cutoff: Date, limit: number) => {
      const n = Math.min(limit, memoriesLeft);
      memoriesLeft -= n;
      return n;
    }),
  };
  const service = new RetentionService(
    db as unknown as DatabaseService,
    repo as unknown as StaleConversationsRepository,
    memories as unknown as MemoryService,
    { retentionDays } as AppConfig,
  );
  return { service, repo, units, memories };
}

describe('RetentionService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterEach(() => jest.useRealTimers());

  it('deletes in batches until a batch comes back short, cutting off RETENTION_DAYS before now', async () => {
    const { service, repo, units } = setUp(7, 2 * RETENTION_BATCH + 3);
    const now = new Date('2026-12-08T00:00:00.000Z');
    expect(await service.sweep(now)).toEqual({
      conversations: 2 * RETENTION_BATCH + 3,
      messages: 2 * (2 * RETENTION_BATCH + 3),
      memories: 0,
    });
    expect(units).toEqual([RETENTION_BATCH, RETENTION_BATCH, 3]);
    expect(repo.staleIds.mock.calls[0][1]).toEqual(new Date('2026-12-01T00:00:00.000Z'));
  });

  it('deletes long-term memories not updated since the same cutoff, in batches', async () => {
    const { service, memories } = setUp(7, 0, RETENTION_BATCH + 1);
    expect(await service.sweep(new Date('2026-12-08T00:00:00.000Z'))).toEqual({
      conversations: 0,
      messages: 0,
      memories: RETENTION_BATCH + 1,
    });
    expect(memories.deleteStale.mock.calls.map((c) => c[1])).toEqual([RETENTION_BATCH, RETENTION_BATCH]);
    expect(memories.deleteStale.mock.calls[0][0]).toEqual(new Date('2026-12-01T00:00:00.000Z'));
  });

  it('runs shortly after start, then hourly, and stops on shutdown', async () => {
    jest.useFakeTimers();
    const { service, repo } = setUp(30, 0);
    service.onApplicationBootstrap();
    expect(repo.staleIds).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(RETENTION_FIRST_RUN_MS);
    expect(repo.staleIds).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(RETENTION_INTERVAL_MS);
    expect(repo.staleIds).toHaveBeenCalledTimes(2);
    await service.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(3 * RETENTION_INTERVAL_MS);
    expect(repo.staleIds).toHaveBeenCalledTimes(2);
  });

  it('schedules nothing when RETENTION_DAYS is unset', async () => {
    jest.useFakeTimers();
    const { service, repo } = setUp(null, 10);
    service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2 * RETENTION_INTERVAL_MS);
    expect(repo.staleIds).not.toHaveBeenCalled();
    expect(await service.sweep()).toEqual({ conversations: 0, messages: 0, memories: 0 });
    await service.onModuleDestroy();
  });
});
