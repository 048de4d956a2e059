/**
 * normalize / denormalize benchmark: resource-elements against @data-client/normalizr (with
 * @data-client/endpoint schemas) and normalizr 3.6.2, on the same deterministic article payload,
 * in one Node process.
 *
 * Every (operation, library) pair is timed in N time-boxed runs; the libraries are interleaved and
 * their order rotated from run to run, so a burst of noise from a shared machine lands on all of
 * them; the table shows the median. Before timing, the libraries are checked to do the same work.
 * Targets from issue 3 are printed as met or MISSED; a miss never fails the process.
 *
 *   npm run bench -- bench/normalize.bench.ts            # full run
 *   npx rollup -c rollup.config.mjs && node --import tsx bench/normalize.bench.ts --quick
 *   options: --quick (tiny payload, one iteration), --runs N, --time MS (per run), --articles N
 */
import { pathToFileURL } from 'node:url';
import { createArticles, type ArticleJSON } from './fixtures/articles.js';
import { median, opsPerSecond, spread } from './harness/measure.js';
import { assertSameWork } from './harness/same-work.js';
import { dataClient } from './libraries/data-client.js';
import { normalizr } from './libraries/normalizr.js';
import { resourceElements } from './libraries/resource-elements.js';
import type { BenchLibrary } from './libraries/types.js';

export const libraries: readonly BenchLibrary[] = [resourceElements, dataClient, normalizr];

interface Operation {
  label: string;
  /** Ours ÷ best peer must reach this. */
  target: number;
  /** The function to time, or undefined when the library cannot do it. */
  prepare(library: BenchLibrary, input: readonly ArticleJSON[]): (() => unknown) | undefined;
}

export const operations: readonly Operation[] = [
  {
    label: 'normalize',
    target: 1.2,
    prepare: (library, input) => () => library.normalize(input),
  },
  {
    label: 'denormalize (uncached)',
    target: 1.2,
    prepare(library, input) {
      const normalized = library.normalize(input);
      return () => library.denormalize(normalized);
    },
  },
  {
    label: 'denormalize (cached)',
    target: 1,
    prepare(library, input) {
      const memo = library.createMemo?.();
      if (!memo) return undefined;
      const normalized = library.normalize(input);
      memo(normalized); // warm: every timed call is a hit
      return () => memo(normalized);
    },
  },
];

export interface RunOptions {
  /** Articles in the payload (default 500, about 0.5 MB of JSON). */
  articles?: number;
  /** Timed runs per (operation, library); the median is reported (default 11). */
  runs?: number;
  /** Length of one timed run in ms; 0 means a single call (default 200). */
  timeBoxMs?: number;
  libraries?: readonly BenchLibrary[];
  /** Where the table goes (default console.log); pass a no-op to stay quiet. */
  log?: (line: string) => void;
}

export interface Cell {
  /** ops/sec of each run, in run order. */
  samples: number[];
  median: number;
  spread: number;
}

export interface Row {
  operation: string;
  target: number;
  /** One per library, in `libraries` order; undefined where the library has no such path. */
  cells: (Cell | undefined)[];
  /**
   * Ours ÷ each library (1 for ours itself), undefined where either side is missing: the median
   * of the per-run ratios, each from two measurements taken moments apart, which cancels most of
   * a shared machine's drifting load.
   */
  ratios: (number | undefined)[];
  /** Ours ÷ the fastest peer of the same run, median over the runs. */
  bestPeerRatio: number | undefined;
  met: boolean | undefined;
}

export interface BenchReport {
  fixture: { articles: number; comments: number; users: number; bytes: number };
  libraries: string[];
  runs: number;
  timeBoxMs: number;
  rows: Row[];
}

/** Checks the libraries agree, times every operation, prints the tables, returns the numbers. */
export function run(options: RunOptions = {}): BenchReport {
  const { articles = 500, runs = 11, timeBoxMs = 200, log = console.log } = options;
  const subjects = options.libraries ?? libraries;
  const input = createArticles({ articles });
  const fixture = describeFixture(input);

  assertSameWork(subjects, input);

  const timed = operations.map((operation) =>
    subjects.map((library) => operation.prepare(library, input)),
  );
  const samples = timed.map((fns) => fns.map(() => [] as number[]));
  // One untimed pass first, so the JIT has settled before the first sample counts.
  for (let pass = -1; pass < runs; pass += 1) {
    timed.forEach((fns, o) => {
      for (let i = 0; i < fns.length; i += 1) {
        const l = (i + Math.max(pass, 0)) % fns.length; // rotate who goes first
        const fn = fns[l];
        if (!fn) continue;
        const value = opsPerSecond(fn, timeBoxMs);
        if (pass >= 0) samples[o]![l]!.push(value);
      }
    });
  }

  const oursIndex = subjects.findIndex((library) => library.ours);
  const rows: Row[] = operations.map((operation, o) => {
    const cells = samples[o]!.map((values) =>
      values.length
        ? { samples: values, median: median(values), spread: spread(values) }
        : undefined,
    );
    const ours = samples[o]![oursIndex];
    const pairedRatio = (other: (run: number) => number | undefined) => {
      if (!ours?.length) return undefined;
      const perRun = ours.map((value, r) => value / other(r)!);
      return perRun.every(Number.isFinite) ? median(perRun) : undefined;
    };
    const ratios = samples[o]!.map((values) => pairedRatio((r) => values[r]));
    const peers = samples[o]!.filter((values, l) => values.length && l !== oursIndex);
    const bestPeerRatio = peers.length
      ? pairedRatio((r) => Math.max(...peers.map((values) => values[r]!)))
      : undefined;
    const met = bestPeerRatio === undefined ? undefined : bestPeerRatio >= operation.target;
    return {
      operation: operation.label,
      target: operation.target,
      cells,
      ratios,
      bestPeerRatio,
      met,
    };
  });

  const report: BenchReport = {
    fixture,
    libraries: subjects.map((library) => library.name),
    runs,
    timeBoxMs,
    rows,
  };
  print(report, oursIndex, log);
  return report;
}

function describeFixture(input: readonly ArticleJSON[]): BenchReport['fixture'] {
  const users = new Set<string>();
  let comments = 0;
  for (const article of input) {
    users.add(article.author.id);
    comments += article.comments.length;
    for (const comment of article.comments) users.add(comment.author.id);
  }
  const bytes = Buffer.byteLength(JSON.stringify(input));
  return { articles: input.length, comments, users: users.size, bytes };
}

// ---- Printing ----

const opsFormat = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });

function formatCell(cell: Cell | undefined): string {
  if (!cell) return 'n/a';
  const noise = cell.samples.length > 1 ? ` ±${Math.round((cell.spread / 2) * 100)}%` : '';
  return `${opsFormat.format(cell.median)}/s${noise}`;
}

const formatRatio = (ratio: number | undefined) =>
  ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}x`;

function table(header: string[], body: string[][]): string[] {
  const widths = header.map((_, c) => Math.max(...[header, ...body].map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    row
      .map((text, c) => (c === 0 ? text.padEnd(widths[c]!) : text.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [
    line(header),
    widths
      .map((width) => '-'.repeat(width))
      .join('  ')
      .trimEnd(),
    ...body.map(line),
  ];
}

function print(report: BenchReport, oursIndex: number, log: (line: string) => void) {
  const { fixture, runs, timeBoxMs, rows } = report;
  log(
    `payload: ${fixture.articles} articles, ${fixture.comments} comments, ${fixture.users} users, ` +
      `${(fixture.bytes / 1024).toFixed(0)} KB of JSON`,
  );
  log(
    `ops/sec (one op = the whole payload), median of ${runs} run(s) of ` +
      `${timeBoxMs ? `${timeBoxMs} ms` : 'one call'}, libraries interleaved; ± is half the range of the runs`,
  );
  log('');
  for (const line of table(
    ['operation', ...report.libraries],
    rows.map((row) => [row.operation, ...row.cells.map(formatCell)]),
  ))
    log(line);
  if (oursIndex < 0) return;

  const peers = report.libraries.filter((_, l) => l !== oursIndex);
  log('');
  log(`${report.libraries[oursIndex]} ÷ peer: median of the per-run ratios (higher is better)`);
  for (const line of table(
    ['operation', ...peers.map((name) => `vs ${name}`), 'vs best peer', 'target', 'result'],
    rows.map((row) => [
      row.operation,
      ...row.ratios.filter((_, l) => l !== oursIndex).map(formatRatio),
      formatRatio(row.bestPeerRatio),
      `≥${row.target}x`,
      row.met === undefined ? 'n/a' : row.met ? 'met' : 'MISSED',
    ]),
  ))
    log(line);
}

// ---- Command line ----

function parseArgs(argv: readonly string[]): RunOptions {
  const options: RunOptions = {};
  const number = (flag: string) => {
    const value = Number(argv[argv.indexOf(flag) + 1]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number`);
    return value;
  };
  if (argv.includes('--quick')) Object.assign(options, { articles: 5, runs: 1, timeBoxMs: 0 });
  if (argv.includes('--runs')) options.runs = Math.max(1, number('--runs'));
  if (argv.includes('--time')) options.timeBoxMs = number('--time');
  if (argv.includes('--articles')) options.articles = number('--articles');
  return options;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(parseArgs(process.argv.slice(2)));
}
