import { AGENT_TOOLS, type Agent, type AgentTool } from '../agents/agent.entity.js';
import type { AgentFields } from '../agents/agents.service.js';
import { isObject } from './archives/archive-values.js';
import { cut, MAX_REPORTED_TEXT_CHARS } from './import-report.js';

/** What became of one agent of an account export. */
type AgentOutcome = 'created' | 'reused' | 'renamed' | 'skipped';

export interface ImportedAgentReport {
  /** The agent's id in the file (null when it has none). */
  sourceId: string | null;
  /** The name in the file, or the name given when `renamed`. */
  name: string;
  /** The caller's agent the file's conversations are linked to; null when skipped, or created in a dry run. */
  id: string | null;
  outcome: AgentOutcome;
  /** Why it was skipped, or which name it had in the file when renamed. */
  reason?: string;
  /** The start of its system prompt in the file (MAX_REPORTED_TEXT_CHARS at most): what it would tell the model. */
  systemPrompt: string | null;
  /** The tools the file gives it (at most the known ones, and a few of the others, cut). */
  tools: string[];
}

/** An agent of the file, as the import will store it. */
interface PlannedAgent {
  readonly sourceId: string | null;
  readonly fields: AgentFields | null;
  readonly report: ImportedAgentReport;
  /** Set when an agent of the caller with the same name and settings is reused. */
  readonly reuse: Agent | null;
}

const MAX_NAME = 100;
const SETTINGS = [
  'emoji',
  'description',
  'systemPrompt',
  'model',
  'temperature',
  'maxTokens',
  'contextTokenBudget',
] as const;

/**
 * An exported agent's settings, checked with the bounds of POST /api/agents; a string saying
 * what is wrong otherwise. Fields a file leaves out are the defaults.
 */
export function agentFieldsOf(raw: unknown): AgentFields | string {
  if (!isObject(raw)) return 'not a JSON object';
  const text = (key: string, max: number, nonEmpty = false): string | null | undefined | false => {
    const v = raw[key];
    if (v === undefined || v === null) return v === null ? null : undefined;
    if (typeof v !== 'string' || v.length > max || v.includes('\u0000') || (nonEmpty && !v.trim())) return false;
    return v;
  };
  const number = (key: string, min: number, max: number, integer: boolean): number | null | undefined | false => {
    const v = raw[key];
    if (v === undefined || v === null) return v === null ? null : undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v)))
      return false;
    return v;
  };
  const name = text('name', MAX_NAME, true);
  if (typeof name !== 'string') return `the name must be 1 to ${MAX_NAME} characters`;
  const checks = {
    emoji: text('emoji', 32),
    description: text('description', 2000),
    systemPrompt: text('systemPrompt', 32_000),
    model: text('model', 200, true),
    temperature: number('temperature', 0, 2, false),
    maxTokens: number('maxTokens', 1, 1_000_000, true),
    contextTokenBudget: number('contextTokenBudget', 100, 10_000_000, true),
  };
  for (const [key, value] of Object.entries(checks))
    if (value === false) return `${key} is not a valid value for an agent`;
  const tools = raw.tools ?? [];
  if (!Array.isArray(tools) || tools.some((t) => !(AGENT_TOOLS as readonly unknown[]).includes(t)))
    return `tools must be among: ${AGENT_TOOLS.join(', ')}`;
  return { name, ...(checks as Omit<AgentFields, 'name' | 'tools'>), tools: [...new Set(tools as AgentTool[])] };
}

function sameSettings(agent: Agent, fields: AgentFields): boolean {
  if (SETTINGS.some((key) => (agent[key] ?? null) !== (fields[key] ?? null))) return false;
  const a = [...agent.tools].sort();
  const b = [...(fields.tools ?? [])].sort();
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** `name` is `base (n)` as freeName makes it: a copy renamed by an earlier import of the same file. */
function isSuffixed(name: string, base: string): boolean {
  const match = / \((\d+)\)$/.exec(name);
  if (!match || Number(match[1]) < 2) return false;
  return (
    name.slice(0, match.index) ===
    Array.from(base)
      .slice(0, MAX_NAME - match[0].length)
      .join('')
      .trimEnd()
  );
}

/** `name (2)`, `name (3)`…: the first not in `taken`, cut so that the whole stays within MAX_NAME characters. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${Array.from(name)
      .slice(0, MAX_NAME - suffix.length)
      .join('')
      .trimEnd()}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * What to do with each agent of an account export, given the caller's agents: one with the same
 * name and the same settings is reused (importing the same file twice makes no second copy);
 * a name the caller already uses for another agent gets the first free ` (n)` suffix (and such a
 * copy with the same settings is reused by the next import of that file); an agent
 * that is not valid is skipped (its conversations come without an agent).
 */
export function planAgents(rawAgents: readonly unknown[], existing: readonly Agent[]): PlannedAgent[] {
  const taken = new Set(existing.map((a) => a.name));
  return rawAgents.map((raw): PlannedAgent => {
    const sourceId = isObject(raw) && typeof raw.id === 'string' ? raw.id : null;
    const shown = describeAgent(raw);
    const fields = agentFieldsOf(raw);
    if (typeof fields === 'string')
      return {
        sourceId,
        fields: null,
        reuse: null,
        report: { ...shown, sourceId, id: null, outcome: 'skipped', reason: fields },
      };
    const twin = existing.find(
      (a) => (a.name === fields.name || isSuffixed(a.name, fields.name)) && sameSettings(a, fields),
    );
    if (twin)
      return {
        sourceId,
        fields,
        reuse: twin,
        report: { ...shown, sourceId, name: twin.name, id: twin.id, outcome: 'reused' },
      };
    if (!taken.has(fields.name)) {
      taken.add(fields.name);
      return {
        sourceId,
        fields,
        reuse: null,
        report: { ...shown, sourceId, name: fields.name, id: null, outcome: 'created' },
      };
    }
    const name = freeName(fields.name, taken);
    taken.add(name);
    return {
      sourceId,
      fields: { ...fields, name },
      reuse: null,
      report: {
        ...shown,
        sourceId,
        name,
        id: null,
        outcome: 'renamed',
        reason: `you already have another agent named "${fields.name}"`,
      },
    };
  });
}

/** Every agent of the file as skipped for `reason`, described as the file has it (the agents are not imported). */
export function listAgents(rawAgents: readonly unknown[], reason: string): ImportedAgentReport[] {
  return rawAgents.map((raw) => ({
    ...describeAgent(raw),
    sourceId: isObject(raw) && typeof raw.id === 'string' ? raw.id : null,
    id: null,
    outcome: 'skipped',
    reason,
  }));
}

const LISTED_TOOLS = 10;

/** What an agent of the file would tell the model and do, as the file says, cut to report sizes whatever it holds. */
function describeAgent(raw: unknown): { name: string; systemPrompt: string | null; tools: string[] } {
  if (!isObject(raw)) return { name: '', systemPrompt: null, tools: [] };
  const tools = Array.isArray(raw.tools)
    ? raw.tools.slice(0, LISTED_TOOLS).filter((t): t is string => typeof t === 'string')
    : [];
  return {
    name: typeof raw.name === 'string' ? cut(raw.name, MAX_NAME + 20) : '',
    systemPrompt: typeof raw.systemPrompt === 'string' ? cut(raw.systemPrompt, MAX_REPORTED_TEXT_CHARS) : null,
    tools: tools.map((t) => cut(t, 50)),
  };
}
