// A web-test-runner reporter that writes the pass/fail counts of the whole run to a JSON file, so
// that `npm test` can print one summary line across Node and Chromium.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

function tally(suite, counts) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) counts.skipped += 1;
    else if (test.passed) counts.passed += 1;
    else counts.failed += 1;
  }
  for (const child of suite?.suites ?? []) tally(child, counts);
}

export function countsReporter(file = '.test-results/browser.json') {
  return {
    onTestRunFinished({ sessions }) {
      const counts = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        tally(session.testResults, counts);
        // A file that failed to load, or threw outside a test, counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) counts.failed += 1;
      }
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(counts));
    },
  };
}
