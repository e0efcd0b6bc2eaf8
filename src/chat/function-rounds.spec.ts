import { assertRoundsKept, BrokenFunctionRoundError, pendingCalls } from './function-rounds.js';
import type { Message } from '../conversations/message.entity.js';

const reply = (id: string, calls: string[]) =>
  ({
    id,
    role: 'assistant',
    parentId: null,
    functionCalls: calls.map((callId) => ({ callId, name: 'f', arguments: '{}' })),
  }) as unknown as Message;
const output = (id: string, parentId: string, callId: string) =>
  ({ id, role: 'tool', parentId, callId }) as unknown as Message;

describe('function rounds', () => {
  it('finds the calls still waiting below the outputs that end the path', async () => {
    const messages = new Map<string, Message>([
      ['r', reply('r', ['a', 'b', 'c'])],
      ['o1', output('o1', 'r', 'a')],
      ['o2', output('o2', 'o1', 'c')],
    ]);
    const parentOf = async (id: string) => messages.get(id) ?? null;
    expect(await pendingCalls(messages.get('o2')!, parentOf)).toEqual(['b']);
    expect(await pendingCalls(messages.get('r')!, parentOf)).toEqual(['a', 'b', 'c']);
    expect(await pendingCalls(null, parentOf)).toEqual([]);
    expect(await pendingCalls({ role: 'user' } as Message, parentOf)).toEqual([]);
  });

  it('refuses an output of no waiting call, and anything else while calls wait', () => {
    const out = (callId: string) => ({ role: 'tool' as const, content: 'x', callId });
    const user = { role: 'user' as const, content: 'hi' };
    expect(() => assertRoundsKept(['a'], [out('a'), user])).not.toThrow();
    expect(() => assertRoundsKept([], [user])).not.toThrow();
    expect(() => assertRoundsKept(['a'], [user])).toThrow(
      new BrokenFunctionRoundError('No tool output found for function call a.'),
    );
    expect(() => assertRoundsKept(['a'], [out('b')])).toThrow(
      'No tool call found for function call output with call_id b.',
    );
    expect(() => assertRoundsKept(['a', 'b'], [out('a')])).toThrow('No tool output found for function call b.');
    // Calls given in the input are answered in it too.
    const asked = {
      role: 'assistant' as const,
      content: '',
      functionCalls: [{ callId: 'c', name: 'f', arguments: '{}' }],
    };
    expect(() => assertRoundsKept([], [user, asked, out('c')])).not.toThrow();
    expect(() => assertRoundsKept([], [user, asked])).toThrow('No tool output found for function call c.');
    expect(() => assertRoundsKept([], [out('c'), out('c')])).toThrow(BrokenFunctionRoundError);
  });
});
