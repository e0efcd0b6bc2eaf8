import fc from 'fast-check';
import { MalformedArchiveError } from './archive.errors.js';
import { type MemberPolicy, type ObjectPart, JsonObjectSplitter } from './json-object-splitter.js';

function split(text: string, chunkSize: number, policy: (key: string) => MemberPolicy): ObjectPart[] {
  const splitter = new JsonObjectSplitter(policy);
  const bytes = Buffer.from(text);
  const out: ObjectPart[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) out.push(...splitter.push(bytes.subarray(i, i + chunkSize)));
  splitter.end();
  return out;
}

const readable = (parts: ObjectPart[]) =>
  parts.map((p) =>
    p.kind === 'end'
      ? ['end', p.key, p.count]
      : p.kind === 'member'
        ? ['member', p.key, 'json' in p.value ? JSON.parse(p.value.json) : `oversized ${p.value.bytes}`]
        : ['element', p.key, 'json' in p.element ? JSON.parse(p.element.json) : `oversized ${p.element.bytes}`],
  );

describe('JsonObjectSplitter', () => {
  const doc = {
    format: 'chat-memory.account',
    'a "quoted" } name': { s: 'braces } { and ] [ inside', n: [1, 2] },
    version: 2,
    conversations: [{ title: 'one ] }' }, 'two', 3, null, [4]],
    shares: [{ token: 'x'.repeat(100) }],
    big: 'y'.repeat(100),
    empty: [],
  };
  const policy = (key: string): MemberPolicy =>
    key === 'conversations' || key === 'empty'
      ? { elements: 1000 }
      : key === 'shares'
        ? 'skip'
        : key === 'big'
          ? { keep: 50 }
          : { keep: 1000 };
  const expected = [
    ['member', 'format', 'chat-memory.account'],
    ['member', 'a "quoted" } name', doc['a "quoted" } name']],
    ['member', 'version', 2],
    ['element', 'conversations', { title: 'one ] }' }],
    ['element', 'conversations', 'two'],
    ['element', 'conversations', 3],
    ['element', 'conversations', null],
    ['element', 'conversations', [4]],
    ['end', 'conversations', 5],
    ['member', 'big', 'oversized 102'],
    ['end', 'empty', 0],
  ];

  it.each([1, 2, 5, 64, 100_000])(
    'hands out members, skipped ones left out, arrays element by element, whatever the chunk size (%i bytes)',
    (chunkSize) => {
      expect(readable(split(`\ufeff ${JSON.stringify(doc, null, 2)} \n`, chunkSize, policy))).toEqual(expected);
    },
  );

  it('gives back any object of JSON values, whatever the chunks', () => {
    const text = fc.stringMatching(/^[\\"\[\]{},:a é😀]*$/);
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node')),
        fc.dictionary(text, tie('node')),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(text, value), fc.integer({ min: 1, max: 40 }), (object, chunkSize) => {
        const parts = split(JSON.stringify(object), chunkSize, () => ({ keep: 1_000_000 }));
        expect(Object.fromEntries(readable(parts).map(([, key, v]) => [key, v]))).toEqual(object);
      }),
    );
  });

  it.each([
    ['[]', /expected an object/],
    ['{"a":1,}', /a comma before "}"/],
    ['{"a" 1}', /expected ":"/],
    ['{"a":}', /a value was expected/],
    ['{"a":1 "b":2}', /expected "," or "}"/],
    ['{"a":1} x', /unexpected data after/],
    ['{"a":[1,2}', /./],
    ['{"a":1', /ends before the object is closed/],
    ['{"conversations":[1,]}', /a comma before "]"/],
  ])('refuses %s as malformed', (text, message) => {
    expect(() => split(text, 3, () => ({ elements: 100 }))).toThrow(MalformedArchiveError);
    expect(() => split(text, 3, () => ({ elements: 100 }))).toThrow(message);
  });
});
