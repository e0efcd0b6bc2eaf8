import { storedUsage } from './stored-usage.js';

describe('storedUsage', () => {
  it('is null when the model reported nothing, and both counts otherwise, a missing one as 0', () => {
    expect(storedUsage({ promptTokens: null, completionTokens: null })).toBeNull();
    expect(storedUsage({ promptTokens: 12, completionTokens: 5 })).toEqual({ promptTokens: 12, completionTokens: 5 });
    expect(storedUsage({ promptTokens: null, completionTokens: 5 })).toEqual({ promptTokens: 0, completionTokens: 5 });
    expect(storedUsage({ promptTokens: 12, completionTokens: null })).toEqual({
      promptTokens: 12,
      completionTokens: 0,
    });
  });
});
