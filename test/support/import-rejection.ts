import { ImportRejectedError } from '../../src/portability/import-problems.js';

/** The problems (path and message) an import refused `input` with; fails the test if it was accepted. */
export async function problemsOfRejected(
  parse: () => Promise<unknown>,
): Promise<Array<{ path: string; message: string }>> {
  try {
    await parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRejectedError);
    return [...(error as ImportRejectedError).problems];
  }
  throw new Error('expected the document to be rejected');
}
