// `npm test`: every check, in order, stopping at the first failure, then one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const steps = [
  ['browser', ['node', 'scripts/ensure-browser.mjs']],
  // DRF, FastAPI and Rails for the tests of test/real-apis (Debian's, installed when missing).
  ['frameworks', ['node', 'scripts/ensure-frameworks.mjs']],
  ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint', ['npx', 'eslint', '.']],
  ['format', ['npx', 'prettier', '--check', '--log-level', 'warn', '.']],
  // Every code block of README.md and docs/ compiles with its own imports; links resolve.
  ['docs examples', ['node', 'scripts/check-docs.mjs']],
  // The API reference builds, and fails on a public symbol without JSDoc.
  ['api reference', ['node', 'scripts/docs.mjs', '--check']],
  ['node tests', ['node', 'scripts/test-node.mjs']],
  ['browser tests', ['node', 'scripts/test-browsers.mjs']],
  // The published package as a consumer gets it: built, packed, installed, type-checked and bundled.
  ['build', ['npm', 'run', 'build']],
  ['types', ['node', 'scripts/test-types-consumer.mjs']],
  ['consumer', ['node', 'scripts/test-consumer.mjs', '--skip-build']],
  // A fresh clone (no dist/) packed (prepack builds): exactly the files a user needs, the same as
  // `npm publish --dry-run` lists; the tarball installed, imported, its types resolved under node10.
  ['package', ['node', 'scripts/test-package.mjs']],
];

rmSync('.test-results/node.json', { force: true });
rmSync('.test-results/browser.json', { force: true });
rmSync('.test-results/types.json', { force: true });
rmSync('.test-results/consumer.json', { force: true });
rmSync('.test-results/package-test.json', { force: true });

function readCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** `chromium (Chromium 156.0.8078.79): 81 passed, 0 failed (40.1 s)`, or why it did not run. */
function engineLine(name, counts) {
  if (counts.notRun) return `${name}: not run (${counts.notRun})`;
  const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
  const seconds = counts.seconds === undefined ? '' : ` (${counts.seconds} s)`;
  const note = counts.note ? ` [${counts.note}]` : '';
  const version = counts.version ? ` (${counts.version})` : '';
  return `${name}${version}: ${counts.passed} passed, ${counts.failed} failed${skipped}${seconds}${note}`;
}

function summary() {
  const node = readCounts('.test-results/node.json');
  const browsers = existsSync('.test-results/browser.json')
    ? JSON.parse(readFileSync('.test-results/browser.json', 'utf8'))
    : {};
  const ran = Object.values(browsers).filter((counts) => !counts.notRun);
  console.log(`\nnode: ${node.passed} passed, ${node.failed} failed`);
  if (Object.keys(browsers).length === 0) console.log('browsers: not run');
  for (const [name, counts] of Object.entries(browsers)) {
    console.log(engineLine(name, counts));
    for (const test of counts.skippedTests ?? []) console.log(`  skipped in ${name}: ${test}`);
    for (const test of counts.failedTests ?? []) console.log(`  FAILED in ${name}: ${test}`);
  }
  const types = readCounts('.test-results/types.json');
  const consumer = readCounts('.test-results/consumer.json');
  const pack = readCounts('.test-results/package-test.json');
  console.log(
    `types: ${types.passed} passed, ${types.failed} failed; consumer: ${consumer.passed} passed, ${consumer.failed} failed; package: ${pack.passed} passed, ${pack.failed} failed`,
  );
  const counted = [node, types, consumer, pack, ...ran];
  const sum = (key) => counted.reduce((total, counts) => total + (counts[key] ?? 0), 0);
  const passed = sum('passed');
  const failed = sum('failed');
  const skipped = sum('skipped');
  console.log(`total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return failed;
}

for (const [name, [command, ...args]] of steps) {
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `\n${name} failed (exit ${result.status ?? result.signal}); later steps were not run.`,
    );
    summary();
    process.exit(1);
  }
}
process.exit(summary() === 0 ? 0 : 1);
