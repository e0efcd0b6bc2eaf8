/**
 * Prints one plain closing line, "N passed, N failed, N skipped", after Jest's own summary; in
 * npm test's run of both passes (jest.config.js), a line per pass before it with its files and
 * the time they took (files run side by side, so the sum is more than the run's wall time).
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const passes = new Map();
    for (const file of results.testResults) {
      const name = file.displayName?.name;
      if (!name) continue;
      const pass = passes.get(name) ?? { files: 0, seconds: 0 };
      pass.files++;
      pass.seconds += (file.perfStats.end - file.perfStats.start) / 1000;
      passes.set(name, pass);
    }
    for (const [name, { files, seconds }] of passes) {
      process.stdout.write(`\n${name}: ${files} files, ${Math.round(seconds)} s of file time`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
