import { memoryModeOf, memoryToolsOf } from './memory-mode.js';

describe('memoryModeOf', () => {
  const conversation = { memory: true };
  it('takes MEMORY_MODE when the agent says nothing', () => {
    expect(memoryModeOf('on', null, conversation)).toBe('on');
    expect(memoryModeOf('read', { memoryMode: null }, conversation)).toBe('read');
  });
  it('lets an agent narrow the mode, never widen it', () => {
    expect(memoryModeOf('on', { memoryMode: 'read' }, conversation)).toBe('read');
    expect(memoryModeOf('on', { memoryMode: 'off' }, conversation)).toBe('off');
    expect(memoryModeOf('read', { memoryMode: 'on' }, conversation)).toBe('read');
    expect(memoryModeOf('off', { memoryMode: 'on' }, conversation)).toBe('off');
  });
  it('is off in a temporary chat (memory: false)', () => {
    expect(memoryModeOf('on', { memoryMode: 'on' }, { memory: false })).toBe('off');
  });
});

describe('memoryToolsOf', () => {
  it('offers the tools an agent enables only when the mode is on', () => {
    const agent = { tools: ['update_state', 'remember', 'forget'] };
    expect(memoryToolsOf('on', agent)).toEqual(['remember', 'forget']);
    expect(memoryToolsOf('read', agent)).toEqual([]);
    expect(memoryToolsOf('on', { tools: ['forget'] })).toEqual(['forget']);
    expect(memoryToolsOf('on', null)).toEqual([]);
  });
});
