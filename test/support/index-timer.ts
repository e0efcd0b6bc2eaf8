import { jest } from '@jest/globals';
import { MessageIndexBacklog } from '../../src/conversations/message-index-backlog.js';
import { currentRequestScope } from '../../src/logging/request-scope.js';
import type { TestApp } from './test-app.js';

/**
 * Holds off the catch-ups of SQLite's full-text index that its timer starts (every second, so at
 * any moment of a test), once every earlier catch-up has ended: until the returned function is
 * called, the index catches up only when a request asks (a turn's recall, a search). A test can
 * then assert what waits for the index, or count a turn's statements, whatever the clock does.
 */
export async function holdIndexTimer(...apps: TestApp[]): Promise<() => void> {
  const held: Array<{ mockRestore(): void }> = [];
  for (const app of apps) {
    const backlog = app.app.get(MessageIndexBacklog);
    await backlog.catchUp();
    const catchUp = backlog.catchUp.bind(backlog);
    held.push(
      jest.spyOn(backlog, 'catchUp').mockImplementation(() => (currentRequestScope() ? catchUp() : Promise.resolve())),
    );
  }
  return () => {
    for (const spy of held) spy.mockRestore();
  };
}
