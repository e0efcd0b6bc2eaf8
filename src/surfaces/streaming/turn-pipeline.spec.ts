import type { ReplyOutcome, StartedTurn } from '../../chat/turn.js';
import { pipeTurn, type TurnStreamWriter } from './turn-pipeline.js';

const turn = { reply: { id: 'r' } } as StartedTurn;
const outcome = { status: 'complete', content: 'ab', model: 'm', usage: null, error: null } as ReplyOutcome;

/** A writer that records what the pipeline asked of it. */
function recorder() {
  const seen: string[] = [];
  const open = (t?: StartedTurn): TurnStreamWriter => {
    seen.push(`open ${t?.reply.id ?? '-'}`);
    return {
      delta: (piece) => seen.push(`delta ${piece}`),
      finish: (o) => void seen.push(`finish ${o.content}`),
      fail: (error) => seen.push(`fail ${(error as Error).message}`),
      end: () => seen.push('end'),
    };
  };
  return { seen, open };
}

describe('pipeTurn', () => {
  it('opens at the start of the turn, forwards each piece, finishes and ends', async () => {
    const { seen, open } = recorder();
    await pipeTurn(open, async (events) => {
      events.started(turn);
      events.delta('a');
      events.delta('b');
      return outcome;
    });
    expect(seen).toEqual(['open r', 'delta a', 'delta b', 'finish ab', 'end']);
  });

  it('lets an error thrown before the stream opens through, and opens nothing', async () => {
    const { seen, open } = recorder();
    await expect(pipeTurn(open, () => Promise.reject(new Error('busy')))).rejects.toThrow('busy');
    expect(seen).toEqual([]);
  });

  it('reports an error thrown once open in the stream, and still ends it', async () => {
    const { seen, open } = recorder();
    await pipeTurn(open, async (events) => {
      events.started(turn);
      events.delta('a');
      throw new Error('lost');
    });
    expect(seen).toEqual(['open r', 'delta a', 'fail lost', 'end']);
  });

  it('opens with the first piece, or the end, when no turn is stored', async () => {
    const first = recorder();
    await pipeTurn(first.open, async (events) => {
      events.delta('a');
      return outcome;
    });
    expect(first.seen).toEqual(['open -', 'delta a', 'finish ab', 'end']);
    const silent = recorder();
    await pipeTurn(silent.open, () => Promise.resolve(outcome));
    expect(silent.seen).toEqual(['open -', 'finish ab', 'end']);
  });
});
