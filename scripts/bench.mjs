// `npm run bench`: builds the library, then runs every bench/*.bench.ts (or the files named on the
// command line) in its own Node process, one after the other, so that one benchmark's garbage does
// not weigh on the next. Benchmarks import `resource-elements` by name, which resolves to the built
// dist/: the same JavaScript users run, measured like the peers' published builds (through tsx
// the source runs measurably slower than the same code built).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync('bench')
      .filter((name) => /\.bench\.(ts|mjs)$/.test(name))
      .sort()
      .map((name) => `bench/${name}`);

if (files.length === 0) console.log('bench: no benchmarks yet.');
const build = spawnSync('npx', ['rollup', '-c', 'rollup.config.mjs', '--silent'], {
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('bench: the build failed, so there is nothing to measure.');
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
