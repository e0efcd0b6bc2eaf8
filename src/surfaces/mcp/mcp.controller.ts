import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import type { Actor } from '../../actor-auth/actor.js';
import { CurrentActor } from '../../actor-auth/current-actor.decorator.js';
import { AgentsService } from '../../agents/agents.service.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import { RecallService } from '../../recall/recall.service.js';
import { RateCost } from '../requests/rate-cost.js';
import { registerHistoryTools } from './history-tools.js';
import { batchRefusal, callsIn, protocolVersionOf } from './json-rpc-batch.js';

const SERVER_INFO = { name: 'chat-memory', version: '0.1.0' };

/**
 * The MCP surface at /mcp: Streamable HTTP, stateless. Each POST gets a server and transport of
 * its own, bound to the caller, so any instance can answer any request (no session to find).
 * As a Nest route it passes the same gates as the REST API: authentication before the body
 * is read, ActorGuard, the per-actor rate limit (each message of a batch counts), and the
 * single-user Host/Origin guard.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsService,
    private readonly recall: RecallService,
  ) {}

  @Post()
  @RateCost(callsIn)
  async post(@CurrentActor() actor: Actor, @Req() req: Request, @Res() res: Response): Promise<void> {
    const refusal = batchRefusal(req.body, protocolVersionOf(req));
    if (refusal)
      return void res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: refusal }, id: null });
    const server = new McpServer(SERVER_INFO, {
      instructions: "Tools to search and read the user's stored conversations with AI assistants. Read-only.",
    });
    registerHistoryTools(server, actor, {
      conversations: this.conversations,
      agents: this.agents,
      recall: this.recall,
    });
    // The SDK advertises list changes with the first tool; a stateless server has no stream to send them on.
    server.server.registerCapabilities({ tools: { listChanged: false } });
    // No sessions, and JSON answers rather than a stream: every request is complete in itself.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // Nest's JSON parser has read (and bounded) the body already.
    await transport.handleRequest(req, res, req.body);
  }

  /** Stateless: no stream for server-initiated messages (GET) and no session to end (DELETE). */
  @Get()
  get(@CurrentActor() _actor: Actor, @Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  delete(@CurrentActor() _actor: Actor, @Res() res: Response): void {
    methodNotAllowed(res);
  }
}

function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .set('Allow', 'POST')
    .json({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'Method not allowed: this server is stateless, send JSON-RPC requests with POST',
      },
      id: null,
    });
}
