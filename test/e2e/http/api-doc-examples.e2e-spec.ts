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
  const commands = blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .filter((line) => /^\s*curl\s/.test(line));
  return commands.map((command) => {
    const url = /https?:\/\/[^/\s'"]+([^\s'"]*)/.exec(command)?.[1] ?? '';
    const data = /(?:-d|--data)\s+'([^']*)'/.exec(command)?.[1];
    const fromFile = /--data-binary\s+@/.test(command);
    const method = /-X\s+([A-Z]+)/.exec(command)?.[1] ?? (data !== undefined || fromFile ? 'POST' : 'GET');
    return {
      command,
      method,
      url: url.replace(/\$[A-Z]+/g, SOME_ID),
      body: data === undefined ? undefined : JSON.parse(data),
      fromFile,
    };
  });
}

/** A JSON block introduced by "Request:" under a `## POST /api/...` heading: that operation's body. */
function bodyExamples(markdown: string): Array<{ method: string; url: string; body: unknown }> {
  const out: Array<{ method: string; url: string; body: unknown }> = [];
  let route: { method: string; url: string } | null = null;
  for (const m of markdown.matchAll(/^(#{2,3}) (.*)$|(Request:)\s*\n+```json\n([\s\S]*?)```/gm)) {
    if (m[1]) {
      const heading = /^(GET|POST|PUT|PATCH|DELETE) (\/\S+)$/.exec(m[2].trim());
      route = heading
        ? { method: heading[1], url: heading[2].replace(/:(\w+)/g, SOME_ID) }
        : m[1] === '##'
          ? null
          : route;
    } else if (route) out.push({ ...route, body: JSON.parse(m[4]) });
  }
  return out;
}

describe('the example requests of docs/api.md', () => {
  const contract = new OpenApiContract();
  const examples = curlExamples(API_DOC);
  const bodies = bodyExamples(API_DOC);

  it('include the request bodies shown as JSON ("Request:"), each accepted by its operation', () => {
    expect(bodies.map((b) => `${b.method} ${b.url.replaceAll(SOME_ID, ':id')}`)).toEqual(
      expect.arrayContaining([
        'POST /api/chat',
        'POST /api/conversations/:id/regenerate',
        'POST /api/conversations/:id/messages/:id/edit',
      ]),
    );
    const refused = bodies
      .map((b) => ({ example: `${b.method} ${b.url}`, problems: contract.requestProblems(b.method, b.url, b.body) }))
      .filter((b) => b.problems.length);
    expect(refused).toEqual([]);
  });

  it('are found (a change of their format must not silently check nothing)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(20);
  });

  it('are each accepted by docs/openapi.json: path, method, query parameters and body', () => {
    const refused = examples
      .filter((e) => e.url.startsWith('/api/') || e.url.startsWith('/health'))
      .map((e) => ({
        command: e.command.trim(),
        problems: contract
          .requestProblems(e.method, e.url, e.body)
          .filter((p) => !(e.fromFile && p === 'the body is missing')),
      }))
      .filter((e) => e.problems.length);
    expect(refused).toEqual([]);
  });
});
