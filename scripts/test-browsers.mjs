// The browser suite once per engine (Chromium, Firefox, WebKit, or those named in BROWSERS), one
// after the other: the e2e files share one API server per run, and msw's service worker is shared
// by every page of a browser. Engines that are not installed are named and left out (scripts/
// ensure-browser.mjs has said how to install them). WebKit runs through a WebKitWebDriver started
// here on a free port under `xvfb-run -a`; its process group (xvfb-run, Xvfb, the driver,
// MiniBrowser and its web processes) is stopped by PID when the run ends, also when it fails or is
// interrupted.
// Writes each engine's counts and seconds to .test-results/browser.json; exits 1 if any engine
// failed. Arguments are passed to wtr:
// `node scripts/test-browsers.mjs --files 'test/e2e/*.browser.test.ts'`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { runCounted } from './counts-reporter.mjs';
import { engines, missingEnginesLine, selectedEngines } from './find-browser.mjs';

const resultsFile = '.test-results/browser.json';
const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

function readResults() {
  return existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {};
}

/** Writes the results in the engines' own order, whatever order they were filled in. */
function writeResults(results) {
  const ordered = {};
  for (const name of Object.keys(engines)) if (results[name]) ordered[name] = results[name];
  mkdirSync('.test-results', { recursive: true });
  writeFileSync(resultsFile, JSON.stringify(ordered, null, 2));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Process groups started here, stopped on every way out. */
const groups = new Set();

function stopGroup(pid, signal = 'SIGTERM') {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a process group: SIGTERM, then SIGKILL if it is still there after 5 s. */
async function stopAndWait(pid) {
  stopGroup(pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pid)) stopGroup(pid, 'SIGKILL');
  groups.delete(pid);
}

process.on('exit', () => {
  for (const pid of groups) stopGroup(pid, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, async () => {
    console.error(`\nbrowser tests: ${signal}; stopping the browsers and drivers started here.`);
    await Promise.all([...groups].map(stopAndWait));
    process.exit(1);
  });
}

/** Starts WebKitWebDriver under xvfb-run in its own process group; resolves with its port. */
async function startWebKitDriver({ driver, xvfbRun }) {
  const port = await freePort();
  const child = spawn(xvfbRun, ['-a', driver, `--port=${port}`], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  groups.add(child.pid);
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (exited) throw new Error(`WebKitWebDriver exited before it listened on port ${port}`);
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not listen on port ${port}`);
    await sleep(100);
  }
  return { port, pid: child.pid };
}

/**
 * Runs wtr in its own process group, so that a signal to this script stops it too (wtr then closes
 * the browser it launched); resolves with its exit code.
 */
function runWtr(engine, extraEnv) {
  return new Promise((resolve) => {
    const args = ['wtr', '--config', 'web-test-runner.config.mjs', ...process.argv.slice(2)];
    const child = spawn('npx', args, {
      detached: true,
      stdio: 'inherit',
      env: { ...env, WTR_ENGINE: engine, ...extraEnv },
    });
    groups.add(child.pid);
    child.once('exit', (code, signal) => {
      groups.delete(child.pid);
      resolve(code ?? signal);
    });
  });
}

/** Runs one engine's suite, once more when it stopped before it counted (see runCounted). */
async function runEngine(engine, found) {
  const { ok, repeated } = await runCounted(engine, () => runEngineOnce(engine, found));
  if (repeated) {
    const results = readResults();
    const note = 'ran twice: the first run stopped before it counted';
    results[engine].note = [results[engine].note, note].filter(Boolean).join('; ');
    writeResults(results);
  }
  return ok;
}

async function runEngineOnce(engine, found) {
  const version = engines[engine].version(found) ?? 'version unknown';
  console.log(`\n--- browser tests in ${engine}: ${version} (${engines[engine].describe(found)})`);
  // A repeated run counts afresh: nothing of an earlier attempt stays in the results.
  const earlier = readResults();
  delete earlier[engine];
  writeResults(earlier);
  const started = Date.now();
  let status;
  let note;
  if (engine === 'webkit') {
    let driver;
    try {
      driver = await startWebKitDriver(found);
      status = await runWtr(engine, { WEBKIT_DRIVER_PORT: String(driver.port) });
    } catch (error) {
      status = 1;
      note = error.message;
      console.error(`webkit: ${note}`);
    } finally {
      if (driver) await stopAndWait(driver.pid);
    }
  } else {
    status = await runWtr(engine, {});
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const results = readResults();
  const counts = results[engine] ?? {
    passed: 0,
    failed: 0,
    skipped: 0,
    skippedTests: [],
    failedTests: [],
  };
  const counted = status === 0 || counts.failed > 0;
  if (!counted) {
    // wtr stopped before it could count (a browser that did not start, a timeout): one failure.
    counts.failed = 1;
    counts.note = note ?? `the test run stopped (exit ${status}) before it counted`;
    counts.failedTests = [...counts.failedTests, `the whole run: ${counts.note}`];
  }
  results[engine] = { ...counts, seconds, version };
  writeResults(results);
  console.log(
    `--- ${engine}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${seconds} s`,
  );
  return { ok: counts.failed === 0 && status === 0, counted, note: counts.note };
}

let selected;
try {
  selected = selectedEngines();
} catch (error) {
  console.error(`browser tests: ${error.message}`);
  process.exit(1);
}

rmSync(resultsFile, { force: true });
const results = {};
for (const engine of selected) {
  if (!engines[engine].find()) results[engine] = { notRun: 'not installed' };
}
writeResults(results);

let ok = true;
const missing = Object.keys(results);
if (missing.length > 0) {
  // Said already by scripts/ensure-browser.mjs under `npm test`; said again for a run of this
  // script alone. In CI a missing engine fails the run before any engine starts.
  const ci = process.env.CI === 'true';
  const running = selected.filter((engine) => !missing.includes(engine));
  console.log(missingEnginesLine(missing, running, { ci }));
  if (ci) process.exit(1);
}
for (const engine of selected) {
  const found = engines[engine].find();
  if (!found) {
    console.log(`\n--- browser tests in ${engine}: not run, not installed`);
    continue;
  }
  if (!(await runEngine(engine, found))) ok = false;
}

// One recap line per engine, after all of wtr's output.
console.log('');
for (const [engine, counts] of Object.entries(readResults())) {
  if (counts.notRun) console.log(`--- ${engine}: not run (${counts.notRun})`);
  else {
    console.log(
      `--- ${engine} (${counts.version}): ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${counts.seconds} s`,
    );
    for (const test of counts.failedTests) console.log(`    FAILED in ${engine}: ${test}`);
  }
}

// Nothing this script started may outlive it.
for (const pid of groups) stopGroup(pid, 'SIGKILL');
process.exit(ok ? 0 : 1);
