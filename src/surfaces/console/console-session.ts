import type { ChatMemoryClient, Schemas } from '../../../clients/typescript/src/index.js';
import { call } from './api-error.js';
import { HELP, parseLine } from './commands.js';
import type { ConsoleIo } from './console-io.js';
import { useAgent, type Agent } from './agents.js';
import { streamReply, type StartedReply } from './stream-reply.js';

type Summary = Schemas['ConversationSummaryDto'];

/** The state of one console chat: the conversation and agent in use, and the last /list. */
export class ConsoleSession {
  private conversationId: string | undefined;
  private agent: Agent | undefined;
  private listed: Summary[] | undefined;
  private streaming: StartedReply | undefined;

  constructor(
    private readonly client: ChatMemoryClient,
    private readonly io: ConsoleIo,
  ) {}

  /** Checks that the server answers and takes the key; optionally selects an agent. */
  async connect(agentName: string | undefined): Promise<void> {
    await call(this.io.url, this.client.GET('/api/conversations', { params: { query: { limit: 1 } } }));
    if (agentName) await this.switchAgent(agentName);
  }

  /** Runs one input line; false when the user asked to quit. */
  async handle(line: string): Promise<boolean> {
    const command = parseLine(line);
    switch (command.kind) {
      case 'empty':
        return true;
      case 'quit':
        return false;
      case 'help':
        this.io.out(`${HELP}\n`);
        return true;
      case 'invalid':
        this.io.err(`${command.problem}\n`);
        return true;
      case 'new':
        this.conversationId = undefined;
        this.io.out(`New conversation${this.agent ? ` with ${this.agent.name}` : ''}: your next message starts it.\n`);
        return true;
      case 'list':
        await this.list();
        return true;
      case 'use':
        await this.use(command.index);
        return true;
      case 'agent':
        await this.switchAgent(command.name);
        return true;
      case 'message':
        await this.send(command.text);
        return true;
    }
  }

  /** Stops the reply being streamed, if any (Ctrl+C); true if there was one. */
  async cancelReply(): Promise<boolean> {
    const reply = this.streaming;
    if (!reply) return false;
    const path = { id: reply.conversationId, messageId: reply.messageId };
    await call(
      this.io.url,
      this.client.POST('/api/conversations/{id}/messages/{messageId}/cancel', { params: { path } }),
    );
    return true;
  }

  private async send(text: string): Promise<void> {
    const body: Schemas['ChatRequestDto'] = this.conversationId
      ? { message: text, conversationId: this.conversationId }
      : { message: text, ...(this.agent ? { agentId: this.agent.id } : {}) };
    try {
      await streamReply(this.client, this.io, body, (reply) => {
        this.streaming = reply;
        this.conversationId = reply.conversationId;
      });
    } finally {
      this.streaming = undefined;
    }
  }

  private async list(): Promise<void> {
    const query = this.agent ? { limit: 20, agentId: this.agent.id } : { limit: 20 };
    const page = await call(this.io.url, this.client.GET('/api/conversations', { params: { query } }));
    this.listed = page.items;
    if (!page.items.length) {
      this.io.out('No conversations yet: send a message to start one.\n');
      return;
    }
    page.items.forEach((c, i) => {
      const mark = c.id === this.conversationId ? '*' : ' ';
      this.io.out(`${mark} ${i + 1}. ${c.title}  (${c.updatedAt.slice(0, 16).replace('T', ' ')})\n`);
    });
  }

  private async use(index: number): Promise<void> {
    if (!this.listed) await this.list();
    const chosen = this.listed?.[index - 1];
    if (!chosen) {
      this.io.err(`There is no conversation ${index}: /list shows the numbers.\n`);
      return;
    }
    const params = { path: { id: chosen.id } };
    const conversation = await call(this.io.url, this.client.GET('/api/conversations/{id}', { params }));
    this.conversationId = conversation.id;
    this.io.out(`Using "${conversation.title}" (${conversation.messages.length} messages).\n`);
  }

  private async switchAgent(name: string | undefined): Promise<void> {
    const switched = await useAgent(this.client, this.io, name, this.agent);
    if (!switched) return;
    this.agent = switched.agent;
    this.conversationId = switched.conversationId;
    this.listed = undefined;
  }
}
