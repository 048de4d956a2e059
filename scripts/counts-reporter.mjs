// A web-test-runner reporter that counts passed, failed and skipped tests per engine and merges
// them into one JSON file ({ chromium: { passed, failed, skipped }, firefox: … }), so that
// `npm test` can print one line per engine and one total across Node and every engine. It also
// names every skipped and every failed test with its engine. A test may be skipped only by
// skipInThisEngine() (test/browser/engine.ts), which names the feature the engine lacks; any other
// skip counts as a failure. The test scripts also share timed() and runChecked() from here.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * What skipInThisEngine() (test/browser/engine.ts) logged in a session: the full title of each
 * test it skipped, mapped to the feature the engine lacks.
 */
export function statedGaps(logs = []) {
  const gaps = new Map();
  for (const args of logs) {
    const line = args.map(String).join(' ');
    const match = /^skipped in [a-z]+: "(.*)" needs (.*), which [a-z]+ lacks\.$/.exec(line);
    if (match) gaps.set(match[1], match[2]);
  }
  return gaps;
}

/**
 * Adds a suite's tests to `counts`. `path` is [test file, suite names...]. A skipped test counts as
 * skipped only when it said which feature its engine lacks (`gaps`); any other skip (`it.skip`, a
 * bare `this.skip()`) is a failure, so that no test is ever skipped silently.
 */
export function tally(suite, counts, path = [], gaps = new Map()) {
  for (const test of suite?.tests ?? []) {
    const name = [...path, test.name].join(' › ');
    if (test.skipped) {
      // Mocha's full title: the suite names and the test's, joined by spaces.
      const gap = gaps.get([...path.slice(1), test.name].join(' '));
      if (gap) {
        counts.skipped += 1;
        counts.skippedTests.push(`${name} (needs ${gap})`);
      } else {
        counts.failed += 1;
        counts.failedTests.push(`${name}: skipped without naming what this engine lacks`);
      }
    } else if (test.passed) counts.passed += 1;
    else {
      counts.failed += 1;
      const reason = test.error?.message ? `: ${test.error.message.split('\n')[0]}` : '';
      counts.failedTests.push(`${name}${reason}`);
    }
  }
  for (const child of suite?.suites ?? []) tally(child, counts, [...path, child.name], gaps);
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
        tally(session.testResults, counts, [testFile], statedGaps(session.logs));
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

/**
 * Runs one engine's suite through `runOnce` (which resolves `{ ok, counted, note }`). A run that
 * stopped before anything was counted (the browser crashed or lost its session: WebKitGTK's web
 * process did so once in our CI runs) runs once more, said through `say`; a run that counted,
 * failures included, is never repeated. Resolves with the last run's result and `repeated`.
 * @example const { ok } = await runCounted('webkit', () => runEngineOnce('webkit', found));
 */
export async function runCounted(engine, runOnce, say = console.log) {
  const first = await runOnce();
  if (first.counted) return { ...first, repeated: false };
  say(
    `\n--- ${engine}: the run stopped before it counted (${first.note}); running ${engine} once more`,
  );
  return { ...(await runOnce()), repeated: true };
}

/** Runs `fn`, prints how long it took under `label`, and returns what it returned. */
export function timed(label, fn) {
  const t0 = Date.now();
  const value = fn();
  console.log(`  ${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return value;
}

/**
 * Runs a command to its end and returns its result (stdout and stderr as text); throws, with both
 * outputs, when it fails.
 */
export function runChecked(command, commandArgs, cwd, env) {
  const result = spawnSync(command, commandArgs, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${commandArgs.join(' ')} (in ${cwd}) failed with ${result.status ?? result.signal}:\n` +
        `${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}
