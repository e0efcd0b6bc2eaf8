import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_QUERY_WORDS } from './memory-query.js';
import { TURN_MATCH_LIMIT, TURN_PINNED_LIMIT } from './memory.service.js';

describe('docs/memory.md states the bounds of a turn’s memory read as the code has them', () => {
  const section = (() => {
    const text = readFileSync(join(process.cwd(), 'docs', 'memory.md'), 'utf8');
    const start = text.indexOf('## When it is read');
    return text.slice(start, text.indexOf('\n## ', start + 1)).replace(/\s+/g, ' ');
  })();

  it('pinned memories, matched memories and query words', () => {
    expect(section).toContain(`**pinned memories** (newest first, at most ${TURN_PINNED_LIMIT})`);
    expect(section).toContain(`longest ${MAX_QUERY_WORDS} content words`);
    expect(section).toContain(`any of them matching; at most ${TURN_MATCH_LIMIT})`);
  });
});
