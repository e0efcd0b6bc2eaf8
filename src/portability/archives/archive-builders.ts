/**
 * Builders of archives in the documented shapes of other tools, for the specs and the benchmark.
 * Times are in seconds, as both tools write them.
 */

interface GptSpec {
  role: 'user' | 'assistant' | 'system' | 'tool';
  text?: string;
  /** A whole `content` object instead of `{ content_type: 'text', parts: [text] }`. */
  content?: Record<string, unknown>;
  time?: number;
  status?: string;
  model?: string;
  hidden?: boolean;
  recipient?: string;
  metadata?: Record<string, unknown>;
}

/** [node id, parent id, message or null]; the mapping's `children` are derived. */
export type GptNode = [string, string | null, GptSpec | null];

export function chatGptConversation(options: {
  id: string;
  title?: string;
  createTime?: number;
  updateTime?: number;
  currentNode?: string | null;
  nodes: GptNode[];
}): Record<string, unknown> {
  const mapping: Record<string, Record<string, unknown>> = {};
  for (const [id, parent, spec] of options.nodes) {
    mapping[id] = { id, parent, children: [], message: spec ? gptMessage(id, spec) : null };
  }
  for (const [id, parent] of options.nodes) {
    if (parent !== null && mapping[parent]) (mapping[parent].children as string[]).push(id);
  }
  const last = options.nodes[options.nodes.length - 1];
  return {
    title: options.title ?? 'A conversation',
    create_time: options.createTime ?? 1_700_000_000.5,
    update_time: options.updateTime ?? 1_700_000_900.25,
    mapping,
    moderation_results: [],
    current_node: options.currentNode === undefined ? last?.[0] : options.currentNode,
    plugin_ids: null,
    conversation_id: options.id,
    conversation_template_id: null,
    gizmo_id: null,
    is_archived: false,
    default_model_slug: 'gpt-4o',
    id: options.id,
  };
}

function gptMessage(id: string, spec: GptSpec): Record<string, unknown> {
  return {
    id,
    author: { role: spec.role, name: spec.role === 'tool' ? 'python' : null, metadata: {} },
    create_time: spec.time ?? null,
    update_time: null,
    content: spec.content ?? { content_type: 'text', parts: [spec.text ?? ''] },
    status: spec.status ?? 'finished_successfully',
    end_turn: spec.role === 'assistant' ? true : null,
    weight: 1,
    metadata: {
      ...(spec.model ? { model_slug: spec.model, default_model_slug: spec.model } : {}),
      ...(spec.hidden ? { is_visually_hidden_from_conversation: true } : {}),
      ...spec.metadata,
    },
    recipient: spec.recipient ?? 'all',
    channel: null,
  };
}

/** A plain ChatGPT conversation of `turns` question-answer pairs, with a visible root chain like real exports. */
export function linearChatGptConversation(id: string, turns: number, textLength = 200): Record<string, unknown> {
  const nodes: GptNode[] = [
    ['root', null, null],
    ['sys', 'root', { role: 'system', text: '', hidden: true }],
  ];
  let parent = 'sys';
  const filler = 'lorem ipsum dolor sit amet, é ü 😀 "quoted" {braces} [brackets] \\ '
    .repeat(Math.ceil(textLength / 64))
    .slice(0, textLength);
  for (let t = 0; t < turns; t++) {
    nodes.push([`u${t}`, parent, { role: 'user', text: `question ${t}: ${filler}`, time: 1_700_000_000 + t * 10 }]);
    nodes.push([
      `a${t}`,
      `u${t}`,
      { role: 'assistant', text: `answer ${t}: ${filler}`, time: 1_700_000_005 + t * 10, model: 'gpt-4o' },
    ]);
    parent = `a${t}`;
  }
  return chatGptConversation({ id, title: `Conversation ${id}`, nodes });
}

interface WebUiSpec {
  id: string;
  parentId: string | null;
  role: 'user' | 'assistant' | 'system';
  content: string;
  timestamp?: number;
  model?: string;
  done?: boolean;
  error?: unknown;
  files?: unknown[];
}

export function openWebUiChat(options: {
  id: string;
  title?: string;
  createdAt?: number;
  updatedAt?: number;
  currentId?: string | null;
  system?: string;
  messages: WebUiSpec[];
}): Record<string, unknown> {
  const messages: Record<string, Record<string, unknown>> = {};
  for (const m of options.messages) {
    messages[m.id] = {
      ...m,
      childrenIds: options.messages.filter((c) => c.parentId === m.id).map((c) => c.id),
      timestamp: m.timestamp ?? 1_710_000_000,
      ...(m.role === 'assistant'
        ? { model: m.model ?? 'llama3.1:8b', modelName: 'Llama 3.1', done: m.done ?? true }
        : { models: ['llama3.1:8b'] }),
    };
  }
  const last = options.messages[options.messages.length - 1];
  const title = options.title ?? 'A chat';
  return {
    id: options.id,
    user_id: 'b5f5c5d0-user',
    title,
    chat: {
      id: '',
      title,
      models: ['llama3.1:8b'],
      params: options.system ? { system: options.system } : {},
      history: { messages, currentId: options.currentId === undefined ? last?.id : options.currentId },
      messages: options.messages,
      tags: [],
      timestamp: (options.createdAt ?? 1_710_000_000) * 1000,
      files: [],
    },
    updated_at: options.updatedAt ?? 1_710_000_600,
    created_at: options.createdAt ?? 1_710_000_000,
    share_id: null,
    archived: false,
    pinned: false,
    meta: { tags: [] },
    folder_id: null,
  };
}
