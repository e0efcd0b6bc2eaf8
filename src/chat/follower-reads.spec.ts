import { apiActor } from '../actor-auth/actor.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { Message } from '../conversations/message.entity.js';
import { FollowerReads } from './follower-reads.js';

describe('FollowerReads', () => {
  const alice = apiActor('alice');
  const message = (id: string) => ({ id, content: `text of ${id}` }) as Message;

  function fakeConversations(answer: (ids: string[]) => Array<Message | null>) {
    const calls = { batches: [] as string[][], alone: [] as string[] };
    const service = {
      async followedMessages(reads: Array<{ messageId: string }>) {
        const ids = reads.map((r) => r.messageId);
        calls.batches.push(ids);
        return answer(ids);
      },
      async getMessage(_actor: unknown, _conversationId: string, messageId: string) {
        calls.alone.push(messageId);
        if (messageId === 'gone') throw new Error('conversation not found');
        return message(`${messageId} (closed)`);
      },
    };
    return { calls, reads: new FollowerReads(service as unknown as ConversationsService) };
  }

  it('answers the reads asked together with one batch read', async () => {
    const { calls, reads } = fakeConversations((ids) => ids.map(message));
    const answers = await Promise.all(['a', 'b', 'c'].map((id) => reads.read(alice, 'conv', id)));
    expect(answers.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(calls.batches).toEqual([['a', 'b', 'c']]);
    expect(calls.alone).toEqual([]);
  });

  it('leaves to getMessage what the batch cannot answer, with its own answer or error', async () => {
    const { calls, reads } = fakeConversations((ids) => ids.map((id) => (id === 'a' ? message(id) : null)));
    const [a, expired, gone] = await Promise.allSettled(
      ['a', 'expired', 'gone'].map((id) => reads.read(alice, 'conv', id)),
    );
    expect(a).toEqual({ status: 'fulfilled', value: expect.objectContaining({ id: 'a' }) });
    expect(expired).toEqual({ status: 'fulfilled', value: expect.objectContaining({ id: 'expired (closed)' }) });
    expect(gone).toEqual({ status: 'rejected', reason: new Error('conversation not found') });
    expect(calls.alone).toEqual(['expired', 'gone']);
  });

  it('fails every read of a batch the database refused', async () => {
    const { reads } = fakeConversations(() => {
      throw new Error('database down');
    });
    const outcomes = await Promise.allSettled([reads.read(alice, 'conv', 'a'), reads.read(alice, 'conv', 'b')]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
