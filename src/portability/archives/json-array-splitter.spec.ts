import fc from 'fast-check';
import { MalformedArchiveError } from './archive.errors.js';
import { type ArrayElement, JsonArraySplitter } from './json-array-splitter.js';

function split(text: string, chunkSize: number, maxElementBytes = 1_000_000): ArrayElement[] {
  const splitter = new JsonArraySplitter(maxElementBytes);
  const bytes = Buffer.from(text);
  const out: ArrayElement[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) out.push(...splitter.push(bytes.subarray(i, i + chunkSize)));
  out.push(...splitter.end());
  return out;
}

function values(text: string, chunkSize: number): unknown[] {
  return split(text, chunkSize).map((e) => ('json' in e ? JSON.parse(e.json) : 'oversized'));
}

describe('JsonArraySplitter', () => {
  const tricky = [
    { s: 'brackets ] } [ { inside a string', q: 'a "quoted" \\" word\\\\', u: 'é 😀 \u2028' },
    [1, [2, [3]], { a: [] }],
    'a bare string with ] and ,',
    42.5,
    true,
    null,
    {},
    [],
  ];
  const text = `\ufeff \n${JSON.stringify(tricky, null, 1)}\n`;

  it.each([1, 2, 3, 7, 64, 100_000])('cuts elements right whatever the chunk size (%i bytes)', (chunkSize) => {
    expect(values(text, chunkSize)).toEqual(tricky);
  });

  it('gives back any array of JSON values, whatever the chunks (strings full of quotes and backslashes)', () => {
    const text = fc.stringMatching(/^[\\"\[\]{},a é😀]*$/);
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
      fc.property(fc.array(value), fc.integer({ min: 1, max: 40 }), fc.boolean(), (elements, chunkSize, pretty) => {
        const json = pretty ? JSON.stringify(elements, null, 2) : JSON.stringify(elements);
        expect(values(json, chunkSize)).toEqual(elements);
      }),
      { numRuns: 300 },
    );
  });

  it('reads an empty array', () => {
    expect(split(' [ ] ', 1)).toEqual([]);
  });

  it('drops an element over the byte limit but keeps its start and size', () => {
    const big = { title: 'Big one', conversation_id: 'c-9', pad: 'x'.repeat(10_000) };
    const out = split(JSON.stringify([{ a: 1 }, big, { b: 2 }]), 333, 5_000);
    expect(out[0]).toEqual({ index: 0, json: '{"a":1}' });
    expect(out[1]).toMatchObject({ index: 1, oversized: true, bytes: JSON.stringify(big).length });
    expect((out[1] as { head: string }).head.startsWith('{"title":"Big one","conversation_id":"c-9"')).toBe(true);
    expect(out[2]).toEqual({ index: 2, json: '{"b":2}' });
  });

  it.each([
    ['', 'the file is empty'],
    ['{"a":1}', 'expected an array "["'],
    ['[1,2', 'the file ends before the array is closed'],
    ['[{"a":1}', 'the file ends before the array is closed'],
    ['[1,]', 'a comma before "]"'],
    ['[,1]', 'an element was expected before ","'],
    ['[{} {}]', 'expected "," or "]" after an element'],
    ['[1] x', 'unexpected data after the closing "]"'],
  ])('refuses the structure of %j', (input, message) => {
    expect(() => split(input, 2)).toThrow(MalformedArchiveError);
    expect(() => split(input, 2)).toThrow(message);
  });
});
