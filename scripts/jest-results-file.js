// A jest reporter: when TEST_RESULTS_FILE is set, writes the run's totals there, so .ci/run can end
// with one "N passed, N failed" line over `npm test` and `npm run test:cluster` while running each
// exactly as the README writes it.
const fs = require('node:fs');

class JestResultsFile {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_RESULTS_FILE;
    if (!file) return;
    const { numPassedTests, numFailedTests, numRuntimeErrorTestSuites } = results;
    fs.writeFileSync(file, JSON.stringify({ numPassedTests, numFailedTests, numRuntimeErrorTestSuites }));
  }
}

module.exports = JestResultsFile;
