// CI, right after `npm install` in a fresh clone (.ci/run saves what it printed): the install-script
// policy in package.json `allowScripts` is complete and does what it says.
//
//   node scripts/check-install.mjs <file with the output of npm install>
//
// - npm printed no "install scripts not yet covered by allowScripts" warning: every dependency
//   with an install script is approved or denied in package.json (`npm install-scripts ls`).
// - esbuild, whose postinstall is approved, runs: its command and its JavaScript API.
// - The browser-driver downloaders (edgedriver, geckodriver) are denied: the tests use Debian's
//   browsers, and those scripts would reach for the network.
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

const problems = [];
const logFile = process.argv[2];
if (!logFile) {
  console.error('usage: node scripts/check-install.mjs <output of npm install>');
  process.exit(2);
}

const log = readFileSync(logFile, 'utf8');
const warned = log.split('\n').filter((line) => /install-scripts/.test(line));
if (warned.length > 0) {
  problems.push(
    `npm install warned about install scripts; approve or deny them in package.json allowScripts ` +
      `(npm install-scripts approve|deny <name>):\n${warned.join('\n')}`,
  );
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
for (const name of ['edgedriver', 'geckodriver']) {
  if (pkg.allowScripts?.[name] !== false)
    problems.push(`package.json allowScripts does not deny ${name} ("${name}": false)`);
}

const require = createRequire(`${process.cwd()}/`);
const esbuildVersion = require('esbuild/package.json').version;
// On Linux and macOS, esbuild's postinstall puts its native executable in place of the JavaScript
// launcher at bin/esbuild: that is what shows the approval took effect.
const bin = require.resolve('esbuild/bin/esbuild');
const head = Buffer.alloc(2);
const fd = openSync(bin, 'r');
readSync(fd, head, 0, 2, 0);
closeSync(fd);
const native = head.toString('latin1') !== '#!';
if (process.platform !== 'win32' && !native) {
  problems.push(
    'node_modules/esbuild/bin/esbuild is still the JavaScript launcher: its postinstall did not run',
  );
}
const run = native
  ? spawnSync(bin, ['--version'], { encoding: 'utf8' })
  : spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
if (run.status !== 0 || run.stdout.trim() !== esbuildVersion) {
  problems.push(`esbuild --version: ${run.stdout}${run.stderr}`.trim());
}
const esbuild = require('esbuild');
const { code } = await esbuild.transform('const n: number = 1;', { loader: 'ts' });
if (code.trim() !== 'const n = 1;') problems.push(`esbuild's transform gave ${code}`);

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(
  `install: no unreviewed install scripts; esbuild ${esbuildVersion} runs${native ? ' (native executable)' : ''}; ` +
    'edgedriver and geckodriver denied',
);
