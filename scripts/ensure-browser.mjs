// Makes sure a Chrome/Chromium exists before the browser tests start. On a fresh Debian machine,
// running as root, it installs Debian's chromium; anywhere else it says how to get one. It never
// prints a stack trace: every way out is one line.
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { findBrowser } from './find-browser.mjs';

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const found = findBrowser();
if (found) {
  console.log(`browser: ${found}`);
  process.exit(0);
}
if (process.env.CHROME_PATH) {
  fail(
    `browser: CHROME_PATH is set to "${process.env.CHROME_PATH}", which is not an executable file.`,
  );
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot || !has('apt-get')) {
  fail(
    'browser: no Chrome or Chromium found. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH to its executable.',
  );
}

console.log(
  "browser: no Chrome or Chromium found; installing Debian's chromium with apt-get (about 30 s)...",
);
mkdirSync('.test-results', { recursive: true });
const log = '.test-results/apt-get-chromium.log';
const result = spawnSync(
  'sh',
  ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'],
  { encoding: 'utf8' },
);
writeFileSync(log, `${result.stdout ?? ''}\n${result.stderr ?? ''}`);
const installed = findBrowser();
if (result.status !== 0 || !installed) {
  fail(`browser: installing chromium with apt-get failed (exit ${result.status}); see ${log}.`);
}
console.log(`browser: installed ${installed}`);
