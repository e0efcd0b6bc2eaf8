import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Built-in tools an agent may enable. */
export const AGENT_TOOLS = ['update_state', 'remember', 'forget'] as const;
export type AgentTool = (typeof AGENT_TOOLS)[number];

/** How a turn uses long-term memories: not at all, read them, or read and write them (the tools). */
export const MEMORY_MODES = ['off', 'read', 'on'] as const;
export type MemoryMode = (typeof MEMORY_MODES)[number];

/** A persona with its own instructions and model settings, owned by an actor. */
@Entity('agents')
@Index('idx_agents_actor_name', ['actor', 'name'])
export class Agent {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_agents' })
  id: string;

  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_agents' })
  actor: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  emoji: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** Sent first to the model on every turn of the agent's conversations. */
  @Column({ name: 'system_prompt', type: 'text', nullable: true })
  systemPrompt: string | null;

  /** Overrides LLM_MODEL for the agent's turns. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  model: string | null;

  // A 4-byte float holds ~7 digits, and PostgreSQL refuses what underflows it (5e-324 was a 500):
  // six decimals say every temperature a model reads.
  @Column({ type: 'real', nullable: true, transformer: { to: roundedTemperature, from: (v: number | null) => v } })
  temperature: number | null;

  @Column({ name: 'max_tokens', type: 'integer', nullable: true })
  maxTokens: number | null;

  /** Overrides CONTEXT_TOKEN_BUDGET for the agent's turns. */
  @Column({ name: 'context_token_budget', type: 'integer', nullable: true })
  contextTokenBudget: number | null;

  @Column({ type: 'simple-json' })
  tools: AgentTool[];

  /** Narrows MEMORY_MODE for the agent's turns (null: MEMORY_MODE as it is). */
  @Column({ name: 'memory_mode', type: 'varchar', length: 8, nullable: true })
  memoryMode: MemoryMode | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}

function roundedTemperature(value: number | null | undefined): number | null | undefined {
  return typeof value === 'number' ? Math.round(value * 1e6) / 1e6 : value;
}
