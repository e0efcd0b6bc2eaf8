import type { ConversationExport, ExportedMessage } from './export-document.js';

/**
 * A conversation export as a readable Markdown transcript: a heading per thread, then its
 * messages in order. For reading and sharing; only the JSON export can be imported again.
 */
export function renderMarkdown(doc: ConversationExport): string {
  // An export writes every field; the defaults are those of a document read back.
  const { tags = [], threads = [], summaries = [], state = {} } = doc.conversation;
  const c = {
    ...doc.conversation,
    tags,
    threads,
    summaries,
    state,
    updatedAt: doc.conversation.updatedAt ?? doc.conversation.createdAt,
  };
  const out: string[] = [`# ${oneLine(c.title)}`, ''];
  out.push(`- Created: ${when(c.createdAt)}`, `- Last updated: ${when(c.updatedAt)}`);
  out.push(`- Agent: ${c.agent ? oneLine(c.agent.name) : 'none'}`);
  if (c.tags.length) out.push(`- Tags: ${c.tags.join(', ')}`);
  if (c.pinned) out.push('- Pinned');
  if (c.archived) out.push('- Archived');
  out.push(`- Exported: ${when(doc.exportedAt ?? c.updatedAt)}`, '');

  if (Object.keys(c.state).length) out.push('## State', '', fenced(JSON.stringify(c.state, null, 2), 'json'), '');

  // Threads in the order they were created, then any thread named only by its messages.
  const names = [...c.threads.map((t) => t.name), ...c.messages.map((m) => m.thread)].filter(
    (name, i, all) => all.indexOf(name) === i,
  );
  if (names.length === 0) out.push('_No messages._', '');
  for (const name of names) {
    const thread = c.threads.find((t) => t.name === name);
    const messages = c.messages.filter((m) => m.thread === name);
    out.push(`## Thread: ${name}`, '');
    if (thread?.systemPrompt) out.push(quoted(`**System prompt:**\n${thread.systemPrompt}`), '');
    const summary = c.summaries.find((s) => s.thread === name);
    if (summary)
      out.push(quoted(`**Summary of the thread up to message #${summary.coversSeq}:**\n${summary.content}`), '');
    if (messages.length === 0) out.push('_No messages._', '');
    for (const m of messages) out.push(...renderMessage(m));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function renderMessage(m: ExportedMessage): string[] {
  const who =
    m.role === 'user'
      ? 'User'
      : m.role === 'assistant'
        ? `Assistant${m.model ? ` (${oneLine(m.model)})` : ''}`
        : m.role;
  const out = [`### #${m.seq} · ${who} · ${when(m.createdAt)}`, ''];
  if (m.status !== 'complete') {
    const why = m.error ? `: ${m.error.statusCode} ${oneLine(m.error.message)}` : '';
    out.push(`_Status: ${m.status}${why}_`, '');
  }
  if (m.reasoning) out.push('<details><summary>Reasoning</summary>', '', quoted(m.reasoning), '', '</details>', '');
  if (m.content) out.push(m.content, '');
  else out.push('_(empty)_', '');
  if (m.toolCalls.length) {
    const calls = m.toolCalls.map((t) => `${t.name} ${t.arguments}\n→ ${t.result}`).join('\n');
    out.push('Tool calls:', '', fenced(calls, ''), '');
  }
  if (m.versions?.length) {
    const n = m.versions.length;
    out.push(`_${n} earlier answer${n === 1 ? '' : 's'} replaced by regenerate (kept in the JSON export)._`, '');
  }
  return out;
}

/** `2026-11-30 05:55:56 UTC` */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** A code block whose fence is longer than any run of backticks inside it. */
function fenced(text: string, lang: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}
