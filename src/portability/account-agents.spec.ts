import type { Agent } from '../agents/agent.entity.js';
import { agentFieldsOf, freeName, planAgents } from './account-agents.js';

const agent = (name: string, extra: Partial<Agent> = {}): Agent =>
  ({
    id: `id-${name}`,
    actor: 'api:alice',
    name,
    emoji: null,
    description: null,
    systemPrompt: 'Help.',
    model: null,
    temperature: null,
    maxTokens: null,
    contextTokenBudget: null,
    tools: [],
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...extra,
  }) as Agent;
const exported = (name: string, extra: Record<string, unknown> = {}) => ({
  id: `file-${name}`,
  name,
  systemPrompt: 'Help.',
  tools: [],
  ...extra,
});

describe('agents of an account export', () => {
  it('reuses an agent with the same name and settings, renames on a conflict, creates the rest', () => {
    const plan = planAgents(
      [exported('Same'), exported('Taken', { systemPrompt: 'Other.' }), exported('New')],
      [agent('Same'), agent('Taken')],
    );
    expect(plan.map((p) => [p.report.outcome, p.report.name, p.report.id])).toEqual([
      ['reused', 'Same', 'id-Same'],
      ['renamed', 'Taken (2)', null],
      ['created', 'New', null],
    ]);
    expect(plan[1].fields).toMatchObject({ name: 'Taken (2)', systemPrompt: 'Other.' });
    expect(plan[1].report.reason).toBe('you already have another agent named "Taken"');
  });

  it('reuses the renamed copy of an earlier import of the same file instead of making a third', () => {
    const plan = planAgents(
      [exported('Taken', { systemPrompt: 'Other.' })],
      [agent('Taken'), agent('Taken (2)', { systemPrompt: 'Other.' })],
    );
    expect(plan.map((p) => [p.report.outcome, p.report.name])).toEqual([['reused', 'Taken (2)']]);
  });

  it('skips an agent that POST /api/agents would refuse, with why', () => {
    const plan = planAgents(
      [exported(''), exported('Hot', { temperature: 7 }), exported('Tools', { tools: ['rm_rf'] }), 'x'],
      [],
    );
    expect(plan.map((p) => [p.report.outcome, p.report.reason])).toEqual([
      ['skipped', 'the name must be 1 to 100 characters'],
      ['skipped', 'temperature is not a valid value for an agent'],
      ['skipped', 'tools must be among: update_state, remember, forget'],
      ['skipped', 'not a JSON object'],
    ]);
    expect(
      agentFieldsOf(exported('Ok', { emoji: null, maxTokens: 5, tools: ['update_state', 'update_state'] })),
    ).toMatchObject({ name: 'Ok', maxTokens: 5, tools: ['update_state'] });
  });

  it('keeps a suffixed name within 100 characters', () => {
    const long = 'x'.repeat(100);
    expect(freeName(long, new Set([long]))).toBe(`${'x'.repeat(96)} (2)`);
    expect(freeName('A', new Set(['A', 'A (2)']))).toBe('A (3)');
  });
});
