import type { ReplyError, ReplyErrorCode } from '../common/domain-error.js';
import type { MessageVersion } from '../conversations/message.entity.js';

/**
 * The export document describes a reply's error as `{ statusCode, message }`, the numbers the
 * API shows: documents written before replies stored codes, and other tools reading them, keep
 * working. One table each way, at the document's edge.
 */
const EXPORTED_STATUS = {
  model_unavailable: 502,
  interrupted: 502,
  model_timeout: 504,
  reply_too_long: 413,
  reply_timeout: 504,
} as const satisfies Record<ReplyErrorCode, number>;

/** A reply's error as the export document has it. */
interface ExportedError {
  readonly statusCode: number;
  readonly message: string;
}

/** An answer as the export document has it. */
type ExportedVersion = Omit<MessageVersion, 'error'> & { readonly error?: ExportedError | null };

export function exportedError(error: ReplyError | null | undefined): ExportedError | null {
  return error ? { statusCode: EXPORTED_STATUS[error.code], message: error.message } : null;
}

/** An earlier answer as exported (one stored without an error field is exported without it). */
export function exportedVersion(version: MessageVersion): ExportedVersion {
  const { error, ...rest } = version;
  return error === undefined ? rest : { ...rest, error: exportedError(error) };
}

/**
 * The code a document's error is stored with, by the status of its reply: a cut reply was cut
 * by one of the two bounds (413 is the length), anything else failed; statuses a document may
 * carry from elsewhere become the model failure they stand for.
 */
export function importedError(error: ExportedError | null, replyStatus: string): ReplyError | null {
  if (!error) return null;
  return { code: importedCode(error, replyStatus), message: error.message };
}

function importedCode(error: ExportedError, replyStatus: string): ReplyErrorCode {
  if (replyStatus === 'truncated')
    return error.statusCode === EXPORTED_STATUS.reply_too_long ? 'reply_too_long' : 'reply_timeout';
  if (error.statusCode === EXPORTED_STATUS.model_timeout) return 'model_timeout';
  return /^The reply was (interrupted|still being generated when)/.test(error.message)
    ? 'interrupted'
    : 'model_unavailable';
}
