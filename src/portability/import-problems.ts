import type { ValidationError } from 'class-validator';
import { ConversationError } from '../conversations/conversation.errors.js';

/** How many problems an answer lists (a foreign file could have thousands). */
export const MAX_LISTED_PROBLEMS = 20;

/** What is wrong at one place of an imported document. */
export interface ExportProblem {
  /** JSONPath of the offending value, e.g. `$.conversation.messages[3].role`. */
  readonly path: string;
  readonly message: string;
}

/** An import document that is foreign, of another version, or malformed; lists the first problems. */
export class ImportRejectedError extends ConversationError {
  readonly code = 'import_rejected';
  constructor(
    readonly problems: readonly ExportProblem[],
    readonly total: number,
  ) {
    const shown = problems.slice(0, 3).map((p) => `${p.path} ${p.message}`);
    const rest = total - shown.length;
    super(
      `Not an importable conversation export: ${shown.join('; ')}${rest > 0 ? ` (and ${rest} more problem${rest === 1 ? '' : 's'})` : ''}`,
    );
  }
}

/** Counts every problem, keeps the first MAX_LISTED_PROBLEMS. */
export class Problems {
  readonly listed: ExportProblem[] = [];
  total = 0;

  add(path: string, message: string): void {
    this.total++;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push({ path, message });
  }

  addAll(problems: readonly ExportProblem[]): void {
    for (const p of problems) this.add(p.path, p.message);
  }

  rejection(): ImportRejectedError {
    return new ImportRejectedError(this.listed, this.total);
  }
}

const INDEX = /^\d+$/;

/**
 * class-validator's errors as problems with JSON paths under `root`, in the order found (each
 * field's first failed rule: validation runs with stopAtFirstError).
 */
export function problemsOf(errors: readonly ValidationError[], root: string): ExportProblem[] {
  const out: ExportProblem[] = [];
  const walk = (list: readonly ValidationError[], at: string): void => {
    for (const e of list) {
      const item = INDEX.test(e.property);
      const path = item ? `${at}[${e.property}]` : `${at}.${e.property}`;
      const first = e.constraints ? Object.values(e.constraints)[0] : undefined;
      if (first !== undefined) out.push({ path, message: first });
      else if (e.children) walk(e.children, path);
    }
  };
  walk(errors, root);
  return out;
}

/**
 * Problems grouped by the part of the document they are in (a field of the conversation, or
 * one item of its messages, threads or summaries), so a reader can list them in document
 * order next to the checks it makes itself.
 */
export class ProblemsByPart {
  private readonly parts = new Map<string, ExportProblem[]>();

  constructor(problems: readonly ExportProblem[]) {
    for (const p of problems) {
      const part = partOf(p.path);
      const list = this.parts.get(part);
      if (list) list.push(p);
      else this.parts.set(part, [p]);
    }
  }

  /** The problems of one part (`$.conversation.title`, `$.conversation.messages[3]`), once. */
  take(part: string): ExportProblem[] {
    const list = this.parts.get(part) ?? [];
    this.parts.delete(part);
    return list;
  }

  /** Whatever no part was taken for. */
  rest(): ExportProblem[] {
    return [...this.parts.values()].flat();
  }
}

const ITEM_PART = /^\$\.conversation\.(messages|threads|summaries)\[\d+\]/;
const FIELD_PART = /^\$(\.conversation)?\.[A-Za-z]+/;

function partOf(path: string): string {
  return ITEM_PART.exec(path)?.[0] ?? FIELD_PART.exec(path)?.[0] ?? path;
}
