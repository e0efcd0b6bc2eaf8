import type { ArchiveLimits, ArchiveMessage } from './archive.types.js';

/** One node of a source tree, as a reader hands it over: visible as a message, or hidden. */
export interface SourceNode {
  id: string;
  parentId: string | null;
  /** Null for a node that is not shown (root, system, context, tool); its children move up to the nearest shown ancestor. */
  message: Omit<ArchiveMessage, 'id' | 'parentId'> | null;
  /** Creation time in ms when known: siblings are ordered by it, then by `order`. */
  time: number | null;
  /** Position in the source, for a stable order. */
  order: number;
  /** Text a hidden node hands to the next reply below it (a code run and its output). */
  carryText?: string;
  /** Reasoning a hidden node hands to the next reply below it. */
  carryReasoning?: string;
}

interface BuiltTree {
  messages: ArchiveMessage[];
  activeLeafId: string;
  branchPoints: number;
  notes: string[];
  /** Carried text that reached no reply (a user message came first, or the branch ended). */
  unplacedText: number;
  unplacedReasoning: number;
}

type TreeResult = { ok: true; tree: BuiltTree } | { ok: false; reason: string };

function quote(id: string): string {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
}

function joinText(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b || undefined;
  if (!b) return a;
  return `${a}\n\n${b}`;
}

/**
 * Checks a source tree and turns it into messages whose parents come first. Linear in the number of
 * nodes (plus sorting siblings): one pass to index, one depth-first walk with an explicit stack that
 * also finds cycles (a node the walk from the roots never reaches has a parent chain that loops).
 */
export function buildMessageTree(nodes: SourceNode[], activeId: string | null, limits: ArchiveLimits): TreeResult {
  const n = nodes.length;
  if (n > limits.maxNodes) return { ok: false, reason: `too many nodes (${n}, the limit is ${limits.maxNodes})` };

  const indexOf = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const id = nodes[i].id;
    if (indexOf.has(id)) return { ok: false, reason: `node id ${quote(id)} appears twice` };
    indexOf.set(id, i);
  }

  const children: (number[] | undefined)[] = new Array(n);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const parentId = nodes[i].parentId;
    if (parentId === null) {
      roots.push(i);
      continue;
    }
    const p = indexOf.get(parentId);
    if (p === undefined) {
      return {
        ok: false,
        reason: `node ${quote(nodes[i].id)} has parent ${quote(parentId)}, which is not in the conversation`,
      };
    }
    (children[p] ??= []).push(i);
  }

  const bySourceOrder = (a: number, b: number): number => {
    const ta = nodes[a].time;
    const tb = nodes[b].time;
    if (ta !== null && tb !== null && ta !== tb) return ta - tb;
    return nodes[a].order - nodes[b].order;
  };
  roots.sort(bySourceOrder);
  for (const list of children) if (list && list.length > 1) list.sort(bySourceOrder);

  // Per node: its nearest shown self-or-ancestor, the shown depth, and what it carries down.
  const shown = new Int32Array(n).fill(-1);
  const depth = new Int32Array(n);
  const carriedText: (string | undefined)[] = new Array(n);
  const carriedReasoning: (string | undefined)[] = new Array(n);
  const parentOf = new Int32Array(n).fill(-1);
  const messages: ArchiveMessage[] = [];
  const messageAt = new Int32Array(n).fill(-1);
  const shownChildren: number[] = [];
  const lastChild: number[] = [];
  const seen = new Uint8Array(n);
  let unplacedText = 0;
  let unplacedReasoning = 0;
  let visited = 0;

  const stack: number[] = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push(roots[r]);
  while (stack.length > 0) {
    const i = stack.pop()!;
    seen[i] = 1;
    visited++;
    const p = parentOf[i];
    const upShown = p >= 0 ? shown[p] : -1;
    const upDepth = p >= 0 ? depth[p] : 0;
    const upText = p >= 0 ? carriedText[p] : undefined;
    const upReasoning = p >= 0 ? carriedReasoning[p] : undefined;
    const node = nodes[i];
    if (node.message) {
      depth[i] = upDepth + 1;
      if (depth[i] > limits.maxDepth)
        return { ok: false, reason: `too deep (more than ${limits.maxDepth} messages on one path)` };
      shown[i] = i;
      const message: ArchiveMessage = {
        id: node.id,
        parentId: upShown >= 0 ? nodes[upShown].id : null,
        ...node.message,
      };
      if (message.role === 'assistant') {
        const text = joinText(upText, node.carryText);
        if (text) message.content = message.content ? `${text}\n\n${message.content}` : text;
        const reasoning = joinText(upReasoning, node.carryReasoning);
        if (reasoning) message.reasoning = message.reasoning ? `${reasoning}\n\n${message.reasoning}` : reasoning;
      } else {
        if (upText) unplacedText++;
        if (upReasoning) unplacedReasoning++;
      }
      messageAt[i] = messages.length;
      messages.push(message);
      shownChildren.push(0);
      lastChild.push(-1);
      if (upShown >= 0) {
        shownChildren[messageAt[upShown]]++;
        // Children are walked oldest first, so the last one recorded is the newest.
        lastChild[messageAt[upShown]] = messages.length - 1;
      }
    } else {
      depth[i] = upDepth;
      shown[i] = upShown;
      carriedText[i] = joinText(upText, node.carryText);
      carriedReasoning[i] = joinText(upReasoning, node.carryReasoning);
    }
    const list = children[i];
    if (list) {
      for (let c = list.length - 1; c >= 0; c--) {
        parentOf[list[c]] = i;
        stack.push(list[c]);
      }
    } else if (!node.message) {
      if (carriedText[i]) unplacedText++;
      if (carriedReasoning[i]) unplacedReasoning++;
    }
  }

  if (visited < n) {
    const unreached = seen.indexOf(0);
    return {
      ok: false,
      reason: `a cycle: the parents of node ${quote(nodes[unreached].id)} never reach a first message`,
    };
  }
  if (messages.length === 0) return { ok: false, reason: 'no user or assistant messages' };

  let branchPoints = 0;
  let shownRoots = 0;
  for (let m = 0; m < messages.length; m++) {
    if (shownChildren[m] > 1) branchPoints++;
    if (messages[m].parentId === null) shownRoots++;
  }
  if (shownRoots > 1) branchPoints++;

  const notes: string[] = [];
  const newestLeaf = (): number => {
    let best = -1;
    for (let m = 0; m < messages.length; m++) {
      if (shownChildren[m] !== 0) continue;
      if (best < 0 || messages[m].createdAt.getTime() >= messages[best].createdAt.getTime()) best = m;
    }
    return best;
  };
  let active: number;
  const at = activeId === null ? undefined : indexOf.get(activeId);
  if (activeId === null) {
    notes.push('no active message was recorded: the newest leaf is active');
    active = newestLeaf();
  } else if (at === undefined) {
    notes.push(`the recorded active message ${quote(activeId)} does not exist: the newest leaf is active`);
    active = newestLeaf();
  } else if (shown[at] < 0) {
    notes.push(
      `the recorded active message ${quote(activeId)} has no shown message above it: the newest leaf is active`,
    );
    active = newestLeaf();
  } else {
    active = messageAt[shown[at]];
    if (shownChildren[active] > 0) {
      notes.push(`the recorded active message ${quote(activeId)} is not a leaf: its newest branch is active`);
      while (lastChild[active] >= 0) active = lastChild[active];
    }
  }
  return {
    ok: true,
    tree: { messages, activeLeafId: messages[active].id, branchPoints, notes, unplacedText, unplacedReasoning },
  };
}
