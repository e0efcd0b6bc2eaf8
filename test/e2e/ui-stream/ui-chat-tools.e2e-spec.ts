import {
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';
import { offSchema, readChunks, TestChat, textOf, uiTransport, userMessage } from '../../support/ui-chat-client.js';

/**
 * Tool parts on /api/ui/chat with the AI SDK as the client: the agent's own tools streamed as
 * tool parts, and tools the client declares (run in the browser: onToolCall + addToolOutput),
 * whose outputs continue the same reply.
 */
describe('AI SDK useChat: tool parts', () => {
  const fixture = useAppWithFakeModel({ STREAM_FLUSH_MS: '20', SHUTDOWN_GRACE_MS: '2000' });
  let base: string;
  beforeAll(async () => {
    base = await fixture.app.url();
  });

  const uiMessages = async (chatId: string): Promise<UIMessage[]> =>
    (await fixture.app.http().get(`/api/ui/chat/${chatId}/messages`).set(auth(ALICE_KEY)).expect(200)).body;
  const WEATHER = {
    getWeather: {
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };
  /** Every chunk checked with the SDK's own schema (which the transport also applies). */
  const checked = async (chunks: readonly UIMessageChunk[]) => {
    for (const chunk of chunks) expect((await uiMessageChunkSchema().validate!(chunk)).success).toBe(true);
  };

  it('runs a tool of the client: the call streams as a tool part, the output it adds continues the same reply', async () => {
    fixture.fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'getWeather', arguments: '{"city":"Paris"}' }] },
      { kind: 'stream', chunks: ['Sunny', ' in Paris'] },
    );
    const asked: string[] = [];
    const chat: TestChat = new TestChat(
      'tools-client',
      uiTransport(base, ALICE_KEY, {
        body: { tools: WEATHER },
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
          body: { ...body, id, message: messages.at(-1), trigger, messageId },
        }),
      }),
      [],
      {
        onToolCall: ({ toolCall }) => {
          asked.push(`${toolCall.toolName} ${JSON.stringify(toolCall.input)}`);
          void chat.addToolOutput({
            tool: 'getWeather',
            toolCallId: toolCall.toolCallId,
            output: { forecast: 'sunny', degrees: 21 },
          });
        },
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
      },
    );
    await chat.sendMessage({ text: 'Weather in Paris?' });
    expect(chat.error).toBeUndefined();
    expect(asked).toEqual(['getWeather {"city":"Paris"}']);
    expect(chat.messages).toHaveLength(2);
    const reply = chat.messages[1];
    const tool = reply.parts.find((p) => p.type === 'tool-getWeather') as {
      toolCallId: string;
      state: string;
      input: unknown;
      output: unknown;
    };
    expect(tool).toMatchObject({
      state: 'output-available',
      input: { city: 'Paris' },
      output: { forecast: 'sunny', degrees: 21 },
    });
    expect(textOf(reply)).toBe('Sunny in Paris');

    // The model was offered the tool, then sent its call and the output.
    const [first, second] = fixture.fake.completions.slice(-2).map((c) => c.body);
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'getWeather',
          description: 'The weather in a city',
          parameters: WEATHER.getWeather.inputSchema,
        },
      },
    ]);
    expect(second.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: tool.toolCallId, type: 'function', function: { name: 'getWeather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: tool.toolCallId, content: '{"forecast":"sunny","degrees":21}' },
    ]);

    // Stored with the turn: the chat reads back as the hook holds it, one reply with the tool part and the text.
    const seeded = await uiMessages('tools-client');
    expect(seeded.map((m) => m.id)).toEqual(chat.messages.map((m) => m.id));
    expect(seeded[1].parts.filter((p) => p.type !== 'step-start')).toEqual([
      {
        type: 'tool-getWeather',
        toolCallId: tool.toolCallId,
        state: 'output-available',
        input: { city: 'Paris' },
        output: { forecast: 'sunny', degrees: 21 },
      },
      { type: 'text', text: 'Sunny in Paris', state: 'done' },
    ]);
  });

  it('ends a reply that calls a client tool with the call as tool-input-available and finish reason tool-calls', async () => {
    fixture.fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'getWeather', arguments: '{"city":"Oslo"}' }] });
    const stream = await uiTransport(base, ALICE_KEY).sendMessages({
      chatId: 'tools-wire',
      messages: [userMessage('Weather in Oslo?')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
      body: { tools: WEATHER },
    });
    const { chunks, message } = await readChunks(stream);
    await checked(chunks);
    expect(offSchema(chunks)).toEqual([]);
    const call = chunks.find((c) => c.type === 'tool-input-available') as { toolCallId: string };
    expect(chunks.filter((c) => c.type.startsWith('tool-'))).toEqual([
      { type: 'tool-input-start', toolCallId: call.toolCallId, toolName: 'getWeather' },
      { type: 'tool-input-available', toolCallId: call.toolCallId, toolName: 'getWeather', input: { city: 'Oslo' } },
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
    expect(message!.parts).toContainEqual(
      expect.objectContaining({ type: 'tool-getWeather', state: 'input-available', input: { city: 'Oslo' } }),
    );
    // Until the client answers, the stored reply shows the call waiting.
    const seeded = await uiMessages('tools-wire');
    expect(seeded[1].parts).toContainEqual({
      type: 'tool-getWeather',
      toolCallId: call.toolCallId,
      state: 'input-available',
      input: { city: 'Oslo' },
    });

    // Tool outputs that answer no call of the chat's last reply are refused.
    const post = (body: object) =>
      fixture.app
        .http()
        .post('/api/ui/chat')
        .set(auth(ALICE_KEY))
        .send({ id: 'tools-wire', ...body });
    const answered = (toolCallId: string) => ({
      id: message!.id,
      role: 'assistant',
      parts: [
        { type: 'tool-getWeather', toolCallId, state: 'output-available', input: { city: 'Oslo' }, output: 'cold' },
      ],
    });
    for (const bad of [
      answered('not-a-call'),
      {
        ...answered(call.toolCallId),
        parts: [{ type: 'tool-getWeather', toolCallId: call.toolCallId, state: 'input-available', input: {} }],
      },
    ]) {
      const res = await post({ message: bad });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'invalid_input' });
    }
    // A `dynamic-tool` part answers nothing: the replies carry `tool-<name>` parts only (docs/ai-sdk.md).
    const dynamic = await post({
      message: {
        ...answered(call.toolCallId),
        parts: [
          {
            type: 'dynamic-tool',
            toolName: 'getWeather',
            toolCallId: call.toolCallId,
            state: 'output-available',
            input: { city: 'Oslo' },
            output: 'cold',
          },
        ],
      },
    });
    expect({ status: dynamic.status, message: dynamic.body.message }).toEqual({
      status: 400,
      message: expect.stringContaining(`tool call ${call.toolCallId} (getWeather) has no output`),
    });
    for (const tools of [{ getWeather: { inputSchema: 'no' } }, { 'bad name': { inputSchema: {} } }, []]) {
      const res = await post({ message: userMessage('x'), tools });
      expect({ tools, status: res.status, code: res.body.code }).toEqual({ tools, status: 400, code: 'invalid_input' });
    }
    // The right output continues the reply, under the id the client holds.
    const res = await fetch(`${base}/api/ui/chat`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tools-wire', message: answered(call.toolCallId), tools: WEATHER }),
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(`"type":"start","messageId":"${message!.id}"`);
  });

  it('resumes a reply that goes on after tool outputs with the tool parts before it, under the id the client holds', async () => {
    fixture.fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'getWeather', arguments: '{"city":"Rome"}' }] });
    const transport = uiTransport(base, ALICE_KEY, { body: { tools: WEATHER } });
    const first = await readChunks(
      await transport.sendMessages({
        chatId: 'tools-resume',
        messages: [userMessage('Weather in Rome?')],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      }),
    );
    const call = first.chunks.find((c) => c.type === 'tool-input-available') as { toolCallId: string };
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['Warm', ' in Rome'], hold: gate.promise });
    const answered = {
      ...first.message!,
      parts: [
        {
          type: 'tool-getWeather',
          toolCallId: call.toolCallId,
          state: 'output-available',
          input: { city: 'Rome' },
          output: 'warm',
        },
      ],
    } as UIMessage;
    const going = await transport.sendMessages({
      chatId: 'tools-resume',
      messages: [answered],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const resumed = await transport.reconnectToStream({ chatId: 'tools-resume' });
    const reading = readChunks(resumed!);
    gate.resolve();
    const [{ chunks, message }] = await Promise.all([reading, readChunks(going)]);
    await checked(chunks);
    expect(chunks[0]).toMatchObject({ type: 'start', messageId: first.message!.id });
    expect(message!.id).toBe(first.message!.id);
    expect(message!.parts.find((p) => p.type === 'tool-getWeather')).toMatchObject({
      toolCallId: call.toolCallId,
      state: 'output-available',
      input: { city: 'Rome' },
      output: 'warm',
    });
    expect(textOf(message)).toBe('Warm in Rome');
  });

  it('streams the tools of the agent as tool parts, with their output', async () => {
    const agent = (
      await fixture.app
        .http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Keeper', tools: ['update_state'] })
        .expect(201)
    ).body;
    fixture.fake.enqueue(
      {
        kind: 'toolCalls',
        calls: [{ name: 'update_state', arguments: JSON.stringify({ patch: { items: ['milk'] } }) }],
      },
      { kind: 'stream', chunks: ['Noted', '.'] },
    );
    const stream = await uiTransport(base, ALICE_KEY).sendMessages({
      chatId: 'tools-agent',
      messages: [userMessage('Remember milk')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
      body: { agentId: agent.id },
    });
    const { chunks, message } = await readChunks(stream);
    await checked(chunks);
    expect(offSchema(chunks)).toEqual([]);
    const part = message!.parts.find((p) => p.type === 'tool-update_state') as {
      toolCallId: string;
      state: string;
      input: unknown;
      output: unknown;
    };
    expect(part).toMatchObject({
      state: 'output-available',
      input: { patch: { items: ['milk'] } },
      output: { ok: true, state: { items: ['milk'] } },
    });
    expect(textOf(message)).toBe('Noted.');
    const seeded = await uiMessages('tools-agent');
    expect(seeded[1].parts).toContainEqual({
      type: 'tool-update_state',
      toolCallId: part.toolCallId,
      state: 'output-available',
      input: { patch: { items: ['milk'] } },
      output: { ok: true, state: { items: ['milk'] } },
    });
  });

  describe("approval of the agent's tools (needsApproval)", () => {
    /** A chat with an agent that has update_state, whose calls the client asks to approve; it answers every request with `approve`. */
    async function approvalChat(chatId: string, approve: boolean) {
      const agent = (
        await fixture.app
          .http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Careful', tools: ['update_state'] })
          .expect(201)
      ).body;
      fixture.fake.enqueue(
        { kind: 'toolCalls', calls: [{ name: 'update_state', arguments: JSON.stringify({ patch: { plan: 'gym' } }) }] },
        { kind: 'stream', chunks: ['All', ' set'] },
      );
      const chat = new TestChat(
        chatId,
        uiTransport(base, ALICE_KEY, { body: { agentId: agent.id, tools: { update_state: { needsApproval: true } } } }),
        [],
        { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses },
      );
      await chat.sendMessage({ text: 'Plan the gym' });
      expect(chat.error).toBeUndefined();
      const asked = chat.messages[1].parts.find((p) => p.type === 'tool-update_state') as {
        state: string;
        approval: { id: string };
        toolCallId: string;
      };
      expect(asked).toMatchObject({ state: 'approval-requested', approval: { id: expect.any(String) } });
      // Nothing ran yet: the session state is untouched.
      const conversationId = (chat.messages[1].metadata as { conversationId: string }).conversationId;
      expect(
        (await fixture.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)).body
          .state,
      ).toEqual({});
      // Stored: read back waiting for the approval.
      expect((await uiMessages(chatId))[1].parts).toContainEqual(
        expect.objectContaining({
          type: 'tool-update_state',
          state: 'approval-requested',
          approval: { id: asked.approval.id },
        }),
      );
      await chat.addToolApprovalResponse({
        id: asked.approval.id,
        approved: approve,
        reason: approve ? undefined : 'not today',
      });
      await until(() => chat.status === 'ready' && textOf(chat.messages[1]) !== '');
      expect(chat.error).toBeUndefined();
      const state = (
        await fixture.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)
      ).body.state;
      return { chat, asked, state };
    }

    it('runs a call the user approves, and the reply goes on with its output', async () => {
      const { chat, asked, state } = await approvalChat('tools-approve', true);
      expect(state).toEqual({ plan: 'gym' });
      expect(chat.messages).toHaveLength(2);
      const part = chat.messages[1].parts.find((p) => p.type === 'tool-update_state');
      expect(part).toMatchObject({ state: 'output-available', output: { ok: true, state: { plan: 'gym' } } });
      expect(textOf(chat.messages[1])).toBe('All set');
      expect(fixture.fake.lastCompletion.body.messages!.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: asked.toolCallId,
        content: JSON.stringify({ ok: true, state: { plan: 'gym' } }),
      });
    });

    it('does not run a call the user denies; the model is told so and answers', async () => {
      const { chat, asked, state } = await approvalChat('tools-deny', false);
      expect(state).toEqual({});
      expect(chat.messages[1].parts.find((p) => p.type === 'tool-update_state')).toMatchObject({
        state: 'output-denied',
      });
      const told = fixture.fake.lastCompletion.body.messages!.at(-1);
      expect(told).toMatchObject({ role: 'tool', tool_call_id: asked.toolCallId });
      expect(JSON.parse(told!.content as string)).toEqual({
        ok: false,
        error: 'the user denied this call',
        reason: 'not today',
      });
      expect((await uiMessages('tools-deny'))[1].parts).toContainEqual(
        expect.objectContaining({
          type: 'tool-update_state',
          state: 'output-denied',
          approval: { id: asked.approval.id, approved: false, reason: 'not today' },
        }),
      );
    });
  });
});
