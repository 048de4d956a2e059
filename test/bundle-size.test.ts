// The bundle-size budget: minified + gzipped size of `resource-elements` (everything but lit and
// @lit/*) and of `resource-elements/core`, measured by scripts/size.mjs (the same numbers
// `npm run bench` prints beside the peers'), must not exceed bench/size-budget.json.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

interface Measured {
  name: string;
  minified: number;
  gzip: number;
  /** Minified bytes per area of the entry (scripts/size.mjs `areas`). */
  areas: Record<string, number>;
}

const root = new URL('../', import.meta.url);
const budgetFile = JSON.parse(readFileSync(new URL('bench/size-budget.json', root), 'utf8'));
const budgets: Record<string, number> = budgetFile.budgets;
const areaBudgets: { budgets: Record<string, number>; met: string[] } = budgetFile.areas;

// One esbuild run for both entries, outside the tsx loader that runs this file.
const measured: Measured[] = JSON.parse(
  execFileSync(process.execPath, ['scripts/size.mjs', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  }),
);

describe('bundle size (minified + gzip -9, lit and @lit/* external)', () => {
  it('measures both entries and has a budget for each', () => {
    assert.deepEqual(measured.map((m) => m.name).sort(), Object.keys(budgets).sort());
    for (const entry of measured) assert.ok(entry.gzip > 1000, `${entry.name} was bundled`);
  });

  for (const name of Object.keys(budgets)) {
    it(`${name} is within its budget of ${budgets[name]} bytes`, () => {
      const entry = measured.find((m) => m.name === name);
      assert.ok(entry, `${name} was measured`);
      assert.ok(
        entry.gzip <= budgets[name]!,
        `${name} is ${entry.gzip} bytes gzipped, over its budget of ${budgets[name]} ` +
          `(+${entry.gzip - budgets[name]!}). See what grew: node scripts/size.mjs`,
      );
    });
  }

  it('has a budget for each area of the main entry', () => {
    const main = measured.find((m) => m.name === 'resource-elements')!;
    assert.deepEqual(Object.keys(main.areas).sort(), Object.keys(areaBudgets.budgets).sort());
    for (const name of areaBudgets.met) assert.ok(name in areaBudgets.budgets, name);
  });

  // An area that has met its budget once stays within it; the others are on their way there.
  for (const name of areaBudgets.met) {
    it(`area ${name} stays within its budget of ${areaBudgets.budgets[name]} bytes`, () => {
      const bytes = measured.find((m) => m.name === 'resource-elements')!.areas[name]!;
      assert.ok(
        bytes <= areaBudgets.budgets[name]!,
        `${name} is ${bytes} minified bytes, over its budget of ${areaBudgets.budgets[name]}: ` +
          'see node scripts/size.mjs',
      );
    });
  }
});

// What the README's first app does not use stays out of its bundle: a schema is told by what it
// does (holdsEntity, entityFor, walk), never by `instanceof` in another module, so a schema class
// the app never imports is never bundled.
const firstApp: { gzip: number; inputs: string[] } = JSON.parse(
  execFileSync(process.execPath, ['scripts/size.mjs', '--first-app'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  }),
);

describe("the README's first app (Entity, createResource, ResourceController, MutationController)", () => {
  it('is bundled from the sources', () => {
    assert.ok(firstApp.inputs.includes('src/core/schema/entity.ts'), firstApp.inputs.join('\n'));
  });

  // follow.ts: lists that follow their filters, reached only through resource-elements/follow;
  // query.ts: queries over the store, only through resource-elements/query; views.ts:
  // keepPrevious and select, only through resource-elements/views; elements/: the mixin and the
  // bindings for elements without Lit, only through resource-elements/elements; fast/: the FAST
  // adapter, only through resource-elements/fast; html/: reads in plain HTML, only through
  // resource-elements/html.
  for (const unused of [
    'src/core/schema/union.ts',
    'src/core/schema/values.ts',
    'src/core/follow.ts',
    'src/core/query.ts',
    'src/core/views.ts',
    'src/elements/resource-host.ts',
    'src/elements/bind.ts',
    'src/fast/read-resource.ts',
    'src/fast/mutate-resource.ts',
    'src/fast/observed-state.ts',
    'src/html/index.ts',
    'src/html/reads.ts',
    'src/html/resource-read.ts',
    'src/html/stamp.ts',
  ]) {
    it(`leaves out ${unused}`, () => {
      assert.ok(
        !firstApp.inputs.includes(unused),
        `${unused} is in the first app's bundle: find what imports it with esbuild's metafile`,
      );
    });
  }
});
