// The cross-browser run's own rules, checked in Node: a test skipped in an engine counts as skipped
// only when it named what that engine lacks (any other skip is a failure), failures and skips are
// named with their engine and file, each engine's counts are kept apart, a missing engine is one
// line saying how to install it and which engines run, and every gap a browser test may skip for
// is stated in docs/browsers.md.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countsReporter, runCounted, statedGaps, tally } from '../scripts/counts-reporter.mjs';
import { engines, missingEnginesLine, selectedEngines } from '../scripts/find-browser.mjs';

const root = new URL('../', import.meta.url);

/** A session as web-test-runner hands it to a reporter. */
function session(testFile, testResults, logs = [], extra = {}) {
  return { testFile: join(process.cwd(), testFile), testResults, logs, passed: true, ...extra };
}

const heapSuite = {
  name: '',
  tests: [],
  suites: [
    {
      name: 'leaks',
      tests: [
        { name: 'leave nothing', passed: true, skipped: false },
        { name: 'heap does not grow', passed: false, skipped: true },
      ],
      suites: [],
    },
  ],
};
const statedLog = [
  ['skipped in firefox: "leaks heap does not grow" needs performance.memory, which firefox lacks.'],
];

function emptyCounts() {
  return { passed: 0, failed: 0, skipped: 0, skippedTests: [], failedTests: [] };
}

describe('counting browser tests per engine', () => {
  it('reads the gaps skipInThisEngine() stated from the browser logs, and nothing else', () => {
    const gaps = statedGaps([
      ...statedLog,
      ['skipped in firefox: a line of a test that merely mentions skipping'],
      ['engine: firefox'],
    ]);
    assert.deepEqual([...gaps], [['leaks heap does not grow', 'performance.memory']]);
  });

  it('counts a skip that named its gap as skipped, with the gap', () => {
    const counts = emptyCounts();
    tally(heapSuite, counts, ['leaks.browser.test.ts'], statedGaps(statedLog));
    assert.equal(counts.passed, 1);
    assert.equal(counts.skipped, 1);
    assert.equal(counts.failed, 0);
    assert.deepEqual(counts.skippedTests, [
      'leaks.browser.test.ts › leaks › heap does not grow (needs performance.memory)',
    ]);
  });

  it('counts any other skip (it.skip, a bare this.skip()) as a failure that says so', () => {
    const counts = emptyCounts();
    tally(heapSuite, counts, ['leaks.browser.test.ts']);
    assert.equal(counts.skipped, 0);
    assert.equal(counts.failed, 1);
    assert.deepEqual(counts.failedTests, [
      'leaks.browser.test.ts › leaks › heap does not grow: skipped without naming what this engine lacks',
    ]);
  });

  it('names a failed test with its file, suites and the first line of its error', () => {
    const counts = emptyCounts();
    const suite = {
      name: '',
      tests: [],
      suites: [
        {
          name: 'races',
          tests: [
            { name: 'late', passed: false, skipped: false, error: { message: 'expected 1\nmore' } },
          ],
          suites: [],
        },
      ],
    };
    tally(suite, counts, ['races.browser.test.ts']);
    assert.deepEqual(counts.failedTests, ['races.browser.test.ts › races › late: expected 1']);
  });

  it('keeps each engine apart in one file, prints failures and skips with their engine', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'counts-')), 'browser.json');
    const lines = [];
    const log = console.log;
    console.log = (line) => lines.push(line);
    try {
      countsReporter({ engine: 'chromium', file }).onTestRunFinished({
        sessions: [
          session('a.browser.test.ts', heapSuite),
          session('b.browser.test.ts', undefined, [], {
            passed: false,
            errors: [{ message: 'SyntaxError: bad token\n at b.ts:1' }],
          }),
        ],
      });
      countsReporter({ engine: 'firefox', file }).onTestRunFinished({
        sessions: [session('a.browser.test.ts', heapSuite, statedLog)],
      });
    } finally {
      console.log = log;
    }
    const written = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(written), ['chromium', 'firefox']);
    assert.deepEqual(
      [written.chromium.passed, written.chromium.failed, written.chromium.skipped],
      [1, 2, 0],
    );
    assert.deepEqual(
      [written.firefox.passed, written.firefox.failed, written.firefox.skipped],
      [1, 0, 1],
    );
    assert.deepEqual(lines, [
      'chromium: FAILED: a.browser.test.ts › leaks › heap does not grow: skipped without naming what this engine lacks',
      'chromium: FAILED: b.browser.test.ts: SyntaxError: bad token',
      'firefox: skipped: a.browser.test.ts › leaks › heap does not grow (needs performance.memory)',
    ]);
  });
});

describe('choosing and finding engines', () => {
  it('runs every engine by default, or those BROWSERS names, in the engines’ order', () => {
    assert.deepEqual(selectedEngines({}), ['chromium', 'firefox', 'webkit']);
    assert.deepEqual(selectedEngines({ BROWSERS: 'webkit, Chromium' }), ['chromium', 'webkit']);
    assert.throws(
      () => selectedEngines({ BROWSERS: 'chromium,safari' }),
      /BROWSERS names safari; known engines: chromium, firefox, webkit\./,
    );
  });

  it('says in one line how to install a missing engine and which engines run', () => {
    const line = missingEnginesLine(['firefox'], ['chromium', 'webkit']);
    assert.equal(line.includes('\n'), false);
    assert.equal(
      line,
      'browser: firefox not found (Debian/Ubuntu: `sudo apt-get install firefox-esr`; elsewhere set FIREFOX_PATH to Firefox); running the browser tests in chromium, webkit only.',
    );
    const two = missingEnginesLine(['firefox', 'webkit'], ['chromium']);
    assert.match(two, /`sudo apt-get install firefox-esr webkit2gtk-driver xvfb xauth`/);
    assert.match(two, /WEBKIT_DRIVER_PATH to WebKitGTK's WebKitWebDriver and XVFB_RUN_PATH/);
    assert.match(two, /running the browser tests in chromium only\.$/);
    assert.match(missingEnginesLine(['webkit'], ['chromium'], { ci: true }), /CI \(CI=true\)/);
    assert.match(missingEnginesLine(['chromium'], []), /no engine to run the browser tests in\.$/);
  });

  it('looks an engine up through its variable, and finds nothing where it points at nothing', () => {
    const nowhere = { PATH: '', CHROME_PATH: '/nonexistent/chromium' };
    assert.equal(engines.chromium.find(nowhere), undefined);
    assert.equal(
      engines.chromium.find({ PATH: '', CHROME_PATH: process.execPath }),
      process.execPath,
    );
    assert.equal(
      engines.webkit.find({ PATH: '', WEBKIT_DRIVER_PATH: process.execPath, XVFB_RUN_PATH: '/no' }),
      undefined,
      'WebKit needs xvfb-run as well as its driver',
    );
  });

  it('reads the version each engine says it is, for the logs and the summary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engines-'));
    const fake = (name, output) => {
      const file = join(dir, name);
      writeFileSync(file, `#!/bin/sh\necho '${output}'\n`);
      chmodSync(file, 0o755);
      return file;
    };
    const chromium = fake('chromium', 'Chromium 156.0.8078.79 built on Debian GNU/Linux 12');
    assert.equal(engines.chromium.version(chromium), 'Chromium 156.0.8078.79');
    assert.equal(
      engines.firefox.version(fake('firefox', 'Mozilla Firefox 153.7.0esr')),
      'Firefox 153.7.0esr',
    );
    assert.equal(engines.firefox.version(join(dir, 'nothing-here')), undefined);
  });
});

/** Every *.browser.test.ts under a folder. */
function browserTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return browserTests(path);
    return entry.name.endsWith('.browser.test.ts') ? [path] : [];
  });
}

describe('engine gaps in docs/browsers.md', () => {
  it('names every API a browser test may skip for in docs/browsers.md', () => {
    const section = readFileSync(new URL('docs/browsers.md', root), 'utf8');
    const dirs = ['src', 'test'].map((dir) => new URL(`${dir}/`, root).pathname);
    const gaps = dirs
      .flatMap(browserTests)
      .flatMap((file) => [
        ...readFileSync(file, 'utf8').matchAll(/skipInThisEngine\(\s*this,\s*'([^']+)'/g),
      ])
      .map((match) => match[1].split(' ')[0]);
    assert.notEqual(gaps.length, 0, 'the leak test skips its heap check where there is no API');
    for (const api of gaps) {
      assert.ok(section.includes(`\`${api}\``), `docs/browsers.md names \`${api}\``);
    }
  });
});

describe('an engine run that stopped before it counted', () => {
  /** A runOnce that resolves the given results in turn, counting its calls. */
  function runs(...results) {
    const calls = { count: 0 };
    return { calls, runOnce: async () => results[calls.count++] };
  }

  it('runs once more (a crashed browser), says so, and gives the second result', async () => {
    const said = [];
    const { calls, runOnce } = runs(
      { ok: false, counted: false, note: 'the test run stopped (exit 1) before it counted' },
      { ok: true, counted: true },
    );
    const result = await runCounted('webkit', runOnce, (line) => said.push(line));
    assert.equal(calls.count, 2);
    assert.deepEqual(result, { ok: true, counted: true, repeated: true });
    assert.deepEqual(said, [
      '\n--- webkit: the run stopped before it counted (the test run stopped (exit 1) before it counted); running webkit once more',
    ]);
  });

  it('runs no third time when the second also stops', async () => {
    const stopped = { ok: false, counted: false, note: 'crashed' };
    const { calls, runOnce } = runs(stopped, stopped, stopped);
    const result = await runCounted('firefox', runOnce, () => {});
    assert.equal(calls.count, 2);
    assert.equal(result.ok, false);
  });

  it('never repeats a run that counted, failing tests included', async () => {
    for (const first of [
      { ok: true, counted: true },
      { ok: false, counted: true },
    ]) {
      const said = [];
      const { calls, runOnce } = runs(first, { ok: true, counted: true });
      const result = await runCounted('chromium', runOnce, (line) => said.push(line));
      assert.equal(calls.count, 1);
      assert.deepEqual(result, { ...first, repeated: false });
      assert.deepEqual(said, []);
    }
  });
});
