// Makes sure the browser engines exist before the browser tests start: Chromium, Firefox and
// WebKit, or those named in BROWSERS. On a Debian machine, running as root, it installs the missing
// ones with one apt-get; anywhere else, or when that apt-get fails, it says in one line how to
// install them and which engines will run. In CI (CI=true) every selected engine is required. It never prints a stack trace: every
// way out is one line.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, writeFileSync, mkdirSync } from 'node:fs';
import { engines, missingEnginesLine, selectedEngines } from './find-browser.mjs';

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

let selected;
try {
  selected = selectedEngines();
} catch (error) {
  fail(`browser: ${error.message}`);
}

function look() {
  const found = {};
  for (const name of selected) found[name] = engines[name].find();
  return found;
}

function foundLine(found) {
  return selected
    .filter((name) => found[name])
    .map((name) => `${name} ${engines[name].describe(found[name])}`)
    .join('; ');
}

let found = look();
let missing = selected.filter((name) => !found[name]);
if (missing.length === 0) {
  console.log(`browser: ${foundLine(found)}`);
  process.exit(0);
}

// An engine's variable pointing at nothing is a mistake to report, not a reason to install.
for (const name of missing) {
  const variable = engines[name].variable;
  if (process.env[variable] && !isExecutable(process.env[variable])) {
    fail(
      `browser: ${variable} is set to "${process.env[variable]}", which is not an executable file.`,
    );
  }
}

const packages = missing.flatMap((name) => engines[name].packages);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && has('apt-get')) {
  console.log(
    `browser: ${missing.join(', ')} not found; installing Debian's ${packages.join(' ')} with apt-get (about 30 s)...`,
  );
  mkdirSync('.test-results', { recursive: true });
  const log = '.test-results/apt-get-browsers.log';
  const result = spawnSync(
    'sh',
    [
      '-c',
      // Waits for the dpkg lock (another apt-get on the machine) rather than failing at once.
      `apt-get update -qq -o DPkg::Lock::Timeout=300 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 ${packages.join(' ')}`,
    ],
    { encoding: 'utf8' },
  );
  writeFileSync(log, `${result.stdout ?? ''}\n${result.stderr ?? ''}`);
  found = look();
  missing = selected.filter((name) => !found[name]);
  if (missing.length > 0) {
    const what =
      result.status !== 0
        ? `apt-get install ${packages.join(' ')} failed (exit ${result.status}); see ${log}`
        : `apt-get installed ${packages.join(' ')}, but ${missing.join(', ')} is still not found`;
    // Outside CI the engines that are there still run, as on a machine without apt-get.
    const running = selected.filter((name) => found[name]);
    if (process.env.CI === 'true') fail(`browser: ${what}; CI (CI=true) needs every engine.`);
    if (running.length === 0) fail(`browser: ${what}; no engine to run the browser tests in.`);
    console.log(`browser: ${what}; running the browser tests in ${running.join(', ')} only.`);
    process.exit(0);
  }
  console.log(`browser: installed; ${foundLine(found)}`);
  process.exit(0);
}

const running = selected.filter((name) => found[name]);
const ci = process.env.CI === 'true';
const line = missingEnginesLine(missing, running, { ci });
if (ci || running.length === 0) fail(line);
console.log(line);
