import { readFileSync } from 'node:fs';
import { OpenApiContract } from '../../support/openapi-contract.js';

const API_DOC = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
const SOME_ID = '6f1c0b7d-5a9e-4f0e-9a53-2d8c1e4b7a10';

/** A curl command of docs/api.md as a request: method, path with query, JSON body if inline. */
interface Example {
  readonly command: string;
  readonly method: string;
  readonly url: string;
  /** undefined: no body, or one read from a file (`--data-binary @file`). */
  readonly body?: unknown;
  readonly fromFile: boolean;
}

function curlExamples(markdown: string): Example[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const commands = blocks.flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n')).filter((line) => /^\s*curl\s/.test(line));
  return commands.map((command) => {
    const url = /https?:\/\/[^/\s'"]+([^\s'"]*)/.exec(command)?.[1] ?? '';
    const data = /(?:-d|--data)\s+'([^']*)'/.exec(command)?.[1];
    const fromFile = /--data-binary\s+@/.test(command);
    const method = /-X\s+([A-Z]+)/.exec(command)?.[1] ?? (data !== undefined || fromFile ? 'POST' : 'GET');
    return { command, method, url: url.replace(/\$[A-Z]+/g, SOME_ID), body: data === undefined ? undefined : JSON.parse(data), fromFile };
  });
}

describe('the example requests of docs/api.md', () => {
  const contract = new OpenApiContract();
  const examples = curlExamples(API_DOC);

  it('are found (a change of their format must not silently check nothing)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(20);
  });

  it('are each accepted by docs/openapi.json: path, method, query parameters and body', () => {
    const refused = examples
      .filter((e) => e.url.startsWith('/api/') || e.url.startsWith('/health'))
      .map((e) => ({ command: e.command.trim(), problems: contract.requestProblems(e.method, e.url, e.body).filter((p) => !(e.fromFile && p === 'the body is missing')) }))
      .filter((e) => e.problems.length);
    expect(refused).toEqual([]);
  });
});
