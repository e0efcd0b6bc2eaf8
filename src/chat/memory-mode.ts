import type { MemoryMode } from '../agents/agent.entity.js';

const RANK: Record<MemoryMode, number> = { off: 0, read: 1, on: 2 };

/**
 * How a turn uses long-term memories: the narrowest of MEMORY_MODE, the agent's memoryMode and
 * the conversation's switch (`memory: false`, a temporary chat, is off). An agent or a
 * conversation can narrow the operator's choice, never widen it.
 */
export function memoryModeOf(
  global: MemoryMode,
  agent: { readonly memoryMode: MemoryMode | null } | null,
  conversation: { readonly memory: boolean },
): MemoryMode {
  if (!conversation.memory) return 'off';
  const own = agent?.memoryMode ?? global;
  return RANK[own] < RANK[global] ? own : global;
}

/** The memory tools an agent enables that this mode lets the model use. */
export function memoryToolsOf(
  mode: MemoryMode,
  agent: { readonly tools: readonly string[] } | null,
): Array<'remember' | 'forget'> {
  if (mode !== 'on' || !agent) return [];
  return (['remember', 'forget'] as const).filter((tool) => agent.tools.includes(tool));
}
