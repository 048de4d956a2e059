// `npm run bench`: runs every bench/*.bench.ts (or the files named on the command line) in its own
// Node process, one after the other, so that one benchmark's garbage does not weigh on the next.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync('bench')
      .filter((name) => /\.bench\.(ts|mjs)$/.test(name))
      .sort()
      .map((name) => `bench/${name}`);

if (files.length === 0) console.log('bench: no benchmarks yet.');
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(
    process.execPath,
    ['--conditions=resource-elements-source', '--expose-gc', '--import', 'tsx', file],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
