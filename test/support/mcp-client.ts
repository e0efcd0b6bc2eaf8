import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The official MCP client, connected to the app's /mcp with a bearer key (none: no header). */
export async function connectMcp(
  baseUrl: string,
  key?: string,
  options: { fetch?: typeof fetch } = {},
): Promise<Client> {
  const client = new Client({ name: 'chat-memory-tests', version: '1.0.0' });
  const headers: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers }, fetch: options.fetch }),
  );
  return client;
}

/** Calls a tool and returns its result typed as a plain tool result. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a tool result (its first text block). */
export function textOf(result: CallToolResult): string {
  const block = result.content.find((c) => c.type === 'text');
  return block && block.type === 'text' ? block.text : '';
}

/** A fetch that sends each request to the next of `bases` in turn, as a load balancer might. */
export function roundRobinFetch(bases: readonly string[]): { fetch: typeof fetch; sent: number[] } {
  const sent = bases.map(() => 0);
  let next = 0;
  const roundRobin = (input: string | URL | Request, init?: RequestInit) => {
    const i = next++ % bases.length;
    sent[i]++;
    const url = new URL(input instanceof Request ? input.url : input.toString());
    return fetch(new URL(url.pathname + url.search, bases[i]), init);
  };
  return { fetch: roundRobin as typeof fetch, sent };
}
