// A web-test-runner reporter that counts passed, failed and skipped tests per engine and merges
// them into one JSON file ({ chromium: { passed, failed, skipped }, firefox: … }), so that
// `npm test` can print one line per engine and one total across Node and every engine. It also
// names every skipped and every failed test with its engine.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

function tally(suite, counts, path = []) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) {
      counts.skipped += 1;
      counts.skippedTests.push([...path, test.name].join(' › '));
    } else if (test.passed) counts.passed += 1;
    else {
      counts.failed += 1;
      const reason = test.error?.message ? `: ${test.error.message.split('\n')[0]}` : '';
      counts.failedTests.push(`${[...path, test.name].join(' › ')}${reason}`);
    }
  }
  for (const child of suite?.suites ?? []) tally(child, counts, [...path, child.name]);
}

/**
 * `engine` labels the counts (one wtr run per engine); without it, the counts are grouped by the
 * name web-test-runner gives each browser.
 */
export function countsReporter({ engine, file = '.test-results/browser.json' } = {}) {
  return {
    onTestRunFinished({ sessions }) {
      const byEngine = {};
      for (const session of sessions) {
        const label = engine ?? session.browser.name.toLowerCase();
        const counts = (byEngine[label] ??= {
          passed: 0,
          failed: 0,
          skipped: 0,
          skippedTests: [],
          failedTests: [],
        });
        const testFile = relative(process.cwd(), session.testFile);
        tally(session.testResults, counts, [testFile]);
        // A file that failed to load, or threw outside a test, counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) {
          counts.failed += 1;
          const reason = session.errors[0]?.message?.split('\n')[0] ?? 'an error outside any test';
          counts.failedTests.push(`${testFile}: ${reason}`);
        }
      }
      for (const [label, counts] of Object.entries(byEngine)) {
        for (const name of counts.skippedTests) console.log(`${label}: skipped: ${name}`);
        for (const name of counts.failedTests) console.log(`${label}: FAILED: ${name}`);
      }
      const previous = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ ...previous, ...byEngine }, null, 2));
    },
  };
}
