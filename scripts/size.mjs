// Bundle size: what an app pays, minified and gzipped, for an import of resource-elements (and,
// with --peers, for the same kind of import of the libraries a Lit user would otherwise pick).
// Every bundle is made with the same settings: esbuild, minified ESM for the browser, production
// NODE_ENV, `lit` and `@lit/*` left external (the app has Lit anyway), gzip level 9.
//
//   node scripts/size.mjs            our two entries and their budgets, the first app beside
//                                    them, the main entry's areas against theirs, the largest inputs
//   node scripts/size.mjs --peers    the same, then the peers
//   node scripts/size.mjs --json     our two entries as JSON (what test/bundle-size.test.ts reads)
//   node scripts/size.mjs --first-app  the README's first app's import as JSON: its size and the
//                                      src files in its bundle (test/bundle-size.test.ts checks
//                                      that what it does not use stays out)
//
// Budgets live in bench/size-budget.json; `npm test` fails when an entry exceeds its budget.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { devFlagEsbuild } from './dev-flag.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const budgetFile = join(root, 'bench/size-budget.json');

/** The bundler settings every measured entry shares, ours and the peers'. */
export const settings = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  metafile: true,
  logLevel: 'silent',
  // FAST too: an app that uses resource-elements/fast has FAST anyway (no entry measured here uses it).
  external: ['lit', 'lit/*', '@lit/*', '@microsoft/fast-element', '@microsoft/fast-element/*'],
  define: { 'process.env.NODE_ENV': '"production"' },
  // Setting conditions drops esbuild's implicit "module"; name it so peers resolve to their ESM.
  // "resource-elements-source" makes our package name resolve to src/ (always current, no build).
  conditions: ['resource-elements-source', 'module'],
  // src/ is bundled as it is built: each module's development flag becomes the inline test.
  plugins: [devFlagEsbuild()],
};

/** Our entries: the names are the keys of bench/size-budget.json. */
export const ours = [
  {
    name: 'resource-elements',
    what: 'full import (core + Lit layer)',
    code: "export * from 'resource-elements';",
  },
  {
    name: 'resource-elements/core',
    what: 'DOM-free core',
    code: "export * from 'resource-elements/core';",
  },
];

/**
 * The main entry's areas, by the src files they hold: each has a budget of minified bytes in
 * bench/size-budget.json (`areas`). An area listed in `met` there has reached its budget once,
 * and test/bundle-size.test.ts fails if it goes over again.
 */
export const areas = [
  ['schema+normalize', /^src\/core\/(schema|normalize)\//],
  ['controller+managers', /^src\/core\/(controller|managers)\//],
  ['rest', /^src\/core\/rest\//],
  ['store', /^src\/core\/store\//],
  ['lit', /^src\/(lit|provider)\//],
  ['util+errors+env+protocol', /^src\/core\/(util\/|env\/|protocol\/|errors\.ts)/],
];

/** Minified bytes per area in a measured bundle's inputs (files of no area are left out). */
export function areaBytes(inputs) {
  const bytes = Object.fromEntries(areas.map(([name]) => [name, 0]));
  for (const input of inputs) {
    const area = areas.find(([, files]) => files.test(input.path));
    if (area) bytes[area[0]] += input.bytes;
  }
  return bytes;
}

/** What the README's first app imports: what it does not use must stay out of its bundle. */
export const firstApp = {
  name: 'first app',
  what: "the README's import",
  code: "export { Entity, MutationController, ResourceController, createResource } from 'resource-elements';",
};

/** The peers, each as an app would import it. */
export const peers = [
  {
    name: '@data-client/rest 0.9.9 + core 0.10.0',
    what: 'typical: resources, entities, controller, reducer, network manager',
    code: [
      "export { Entity, schema, createResource, RestEndpoint } from '@data-client/rest';",
      "export { Controller, createReducer, initialState, NetworkManager, applyManager } from '@data-client/core';",
    ].join('\n'),
  },
  {
    name: '@data-client/rest 0.9.9 + core 0.10.0',
    what: 'everything (export *)',
    code: "export * from '@data-client/rest';\nexport * from '@data-client/core';",
  },
  {
    name: '@tanstack/query-core 5.104.0',
    what: 'everything (export *)',
    code: "export * from '@tanstack/query-core';",
  },
  {
    name: '@tanstack/lit-query 0.2.25 + query-core',
    what: 'typical: client, provider, query and mutation controllers',
    code: "export { QueryClient, QueryClientProvider, createQueryController, createMutationController } from '@tanstack/lit-query';",
  },
  {
    name: '@tanstack/lit-query 0.2.25 + query-core',
    what: 'everything (export *)',
    code: "export * from '@tanstack/lit-query';",
  },
];

/**
 * Bundles `code` (an entry module's source) and returns its minified and gzipped sizes in bytes,
 * and the inputs that weigh most in the output (from esbuild's metafile).
 */
export async function measure(code) {
  const result = await build({
    ...settings,
    stdin: { contents: code, resolveDir: root, sourcefile: 'entry.js', loader: 'js' },
  });
  const bytes = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output.inputs)
    .map(([path, info]) => ({ path, bytes: info.bytesInOutput }))
    .filter((input) => input.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, inputs };
}

export async function measureAll(entries) {
  const results = [];
  for (const entry of entries) results.push({ ...entry, ...(await measure(entry.code)) });
  return results;
}

/** `{ budgets, targets }` from bench/size-budget.json, each keyed by entry name, in bytes. */
export function readBudgets() {
  return JSON.parse(readFileSync(budgetFile, 'utf8'));
}

/** 1 KB = 1024 bytes throughout. */
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

/** A plain-text table: the first `textColumns` columns align left, the rest (numbers) right. */
function table(rows, columns, textColumns = 2) {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((cell, i) =>
        i < textColumns ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]),
      )
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Prints our sizes against their budgets (and the peers' sizes when asked); returns the rows. */
export async function report({ withPeers = false, top = 8, log = console.log } = {}) {
  const { budgets, targets } = readBudgets();
  const mine = await measureAll(ours);
  log(
    `Bundle size: esbuild ${settings.format}, minified, ${settings.platform}, NODE_ENV=production,`,
  );
  log('lit and @lit/* external, gzip -9. Budgets: bench/size-budget.json.\n');
  log(
    table(
      mine.map((r) => {
        const budget = budgets[r.name];
        return [
          r.name,
          r.what,
          kb(r.minified),
          kb(r.gzip),
          budget ? kb(budget) : '-',
          budget ? (r.gzip <= budget ? 'ok' : 'OVER') : '-',
          targets?.[r.name] ? kb(targets[r.name]) : '-',
          targets?.[r.name] ? (r.gzip <= targets[r.name] ? 'met' : 'MISSED') : '-',
        ];
      }),
      ['entry', 'what', 'minified', 'gzip', 'budget', '', 'target', ''],
    ),
  );
  const app = await measure(firstApp.code);
  log(
    `\n${firstApp.name} (${firstApp.what}): ${kb(app.minified)} minified, ${kb(app.gzip)} gzip, ` +
      `${Math.round((100 * app.gzip) / mine[0].gzip)}% of ${mine[0].name}'s.`,
  );
  const areaBudgets = readBudgets().areas ?? {};
  const bytes = areaBytes(mine[0].inputs);
  log(`\nAreas of ${mine[0].name} (minified bytes in the output):\n`);
  log(
    table(
      areas.map(([name]) => {
        const budget = areaBudgets.budgets?.[name];
        return [
          name,
          areaBudgets.met?.includes(name) ? 'met once' : '',
          bytes[name],
          budget ?? '-',
          budget ? (bytes[name] <= budget ? 'ok' : `+${bytes[name] - budget}`) : '-',
        ];
      }),
      ['area', '', 'bytes', 'budget', ''],
    ),
  );
  log(`\nLargest inputs of ${mine[0].name} (minified bytes in the output):`);
  for (const input of mine[0].inputs.slice(0, top))
    log(`  ${String(input.bytes).padStart(6)}  ${input.path}`);
  let theirs = [];
  if (withPeers) {
    theirs = await measureAll(peers);
    log('\nPeers, same settings:\n');
    log(
      table(
        theirs.map((r) => [
          r.name,
          r.what,
          kb(r.minified),
          kb(r.gzip),
          (mine[0].gzip / r.gzip).toFixed(2),
        ]),
        ['library', 'import', 'minified', 'gzip', 'ours full / this'],
      ),
    );
  }
  return { ours: mine, peers: theirs };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--first-app')) {
    const { minified, gzip, inputs } = await measure(firstApp.code);
    console.log(JSON.stringify({ minified, gzip, inputs: inputs.map((input) => input.path) }));
  } else if (args.includes('--json')) {
    const results = await measureAll(ours);
    console.log(
      JSON.stringify(
        results.map(({ name, minified, gzip, inputs }) => ({
          name,
          minified,
          gzip,
          areas: areaBytes(inputs),
        })),
      ),
    );
  } else {
    await report({ withPeers: args.includes('--peers') });
  }
}
