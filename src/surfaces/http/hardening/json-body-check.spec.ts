import { jsonProblem } from './json-body-check.js';
import { shapeProblem, type JsonShapeLimits } from './json-shape.js';

const limits: JsonShapeLimits = { maxDepth: 4, maxKeysPerObject: 3, maxArrayItems: 3, maxValues: 12 };
const problem = (text: string) => jsonProblem(text, limits);

describe('jsonProblem: the shape of a JSON text, in one pass before the parse', () => {
  it.each([
    ['an object of 3 keys', '{"a":1,"b":{"c":[1,2,3]},"d":null}'],
    ['arrays of 3 items at every level', '[[1,2,3],[4,5,6],[]]'],
    ['4 levels of nesting', '[[[{"a":1}]]]'],
    ['syntax characters inside strings', '{"a,b:{[":"}],\\"\\\\","b":"\\u00e9\\ud83d\\ude00"}'],
    ['an escaped backslash before u0000', '["\\\\u0000"]'],
    ['empty containers', '{"a":{},"b":[],"c":""}'],
    ['a top-level string', '"x"'],
  ])('accepts %s', (_label, text) => {
    expect(problem(text)).toBeNull();
  });

  it.each([
    ['4 keys', '{"a":1,"b":2,"c":3,"d":4}', 'An object has more than 3 keys'],
    ['4 keys in a nested object', '[{"a":1,"b":2,"c":{},"d":[]}]', 'An object has more than 3 keys'],
    ['4 items', '[1,"2",{},[]]', 'An array has more than 3 items'],
    ['5 levels', '[[[[{}]]]]', 'JSON is nested deeper than 4 levels'],
    ['13 values', '[[1,2,3],[4,5,6],[7,8,9],{"a":true}]', 'The body has more than 12 values'],
    ['an escaped NUL', '{"a":"x\\u0000"}', 'NUL characters (\\u0000) are not allowed in strings'],
    ['a lone high surrogate', '["\\ud83dx"]', 'strings must be well-formed Unicode (no lone surrogates)'],
    ['a lone low surrogate', '["\\ude00"]', 'strings must be well-formed Unicode (no lone surrogates)'],
    [
      'a high surrogate before a non-surrogate escape',
      '["\\ud83d\\u0041"]',
      'strings must be well-formed Unicode (no lone surrogates)',
    ],
    [
      'a raw lone surrogate in a decoded text',
      '["a\ud800"]',
      'strings must be well-formed Unicode (no lone surrogates)',
    ],
  ])('refuses %s', (_label, text, message) => {
    expect(problem(text)).toBe(message);
  });

  it('counts what the parse builds: keys and items per container, values in all', () => {
    const wide: JsonShapeLimits = { maxDepth: 64, maxKeysPerObject: 1000, maxArrayItems: 1000, maxValues: 1000 };
    const doc = { a: [1, 'x', null, true, { b: [], c: {} }], d: { e: -1.5e3, f: 'q"}' } };
    // 1 root, a and its 5 items, b and c, d and its 2 values.
    const values = 1 + 1 + 5 + 2 + 1 + 2;
    expect(jsonProblem(JSON.stringify(doc), { ...wide, maxValues: values })).toBeNull();
    expect(jsonProblem(JSON.stringify(doc), { ...wide, maxValues: values - 1 })).toBe(
      `The body has more than ${values - 1} values`,
    );
    expect(shapeProblem(doc, { ...wide, maxValues: values })).toBeNull();
    expect(shapeProblem(doc, { ...wide, maxValues: values - 1 })).toBe(`The body has more than ${values - 1} values`);
  });

  it('stops at the first breach of a huge object', () => {
    const text = `{${Array.from({ length: 90_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonProblem(text, { ...limits, maxKeysPerObject: 10_000, maxValues: 1e9 })).toBe(
      'An object has more than 10000 keys',
    );
  });
});
