import { REPLY_ERROR_CODES } from '../common/domain-error.js';
import { exportedError, exportedVersion, importedError } from './export-error-status.js';

describe('the export document’s error statuses', () => {
  it('exports every stored code as the status the API shows, and imports it back to the same code', () => {
    const statuses = REPLY_ERROR_CODES.map((code) => exportedError({ code, message: 'm' })?.statusCode);
    expect(statuses).toEqual([502, 504, 502, 413, 504]);
    const interrupted = 'The reply was interrupted: the server generating it stopped';
    expect(importedError(exportedError({ code: 'interrupted', message: interrupted }), 'failed')).toEqual({
      code: 'interrupted',
      message: interrupted,
    });
    expect(importedError({ statusCode: 502, message: 'boom' }, 'failed')?.code).toBe('model_unavailable');
    expect(importedError({ statusCode: 504, message: 'slow' }, 'failed')?.code).toBe('model_timeout');
    expect(importedError({ statusCode: 413, message: 'long' }, 'truncated')?.code).toBe('reply_too_long');
    expect(importedError({ statusCode: 504, message: 'slow' }, 'truncated')?.code).toBe('reply_timeout');
    expect(importedError(null, 'failed')).toBeNull();
  });

  it('imports a status of another tool as the failure it stands for', () => {
    expect(importedError({ statusCode: 500, message: 'upstream' }, 'failed')).toEqual({
      code: 'model_unavailable',
      message: 'upstream',
    });
  });

  it('keeps an earlier answer without an error field without it', () => {
    const version = {
      content: 'a',
      status: 'complete' as const,
      model: null,
      promptTokens: null,
      completionTokens: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(exportedVersion(version)).toEqual(version);
    expect(exportedVersion({ ...version, error: null })).toEqual({ ...version, error: null });
  });
});
