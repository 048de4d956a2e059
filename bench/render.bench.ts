/**
 * Render benchmark in headless Chromium: a list of 1,000 rows (each row a custom element bound to
 * one entity) with resource-elements, with Lit by hand and no data library (the limit: it applies
 * the server's answer to the one row concerned), and with @tanstack/lit-query both ways its docs
 * show (invalidate-and-refetch, and setQueryData from the mutation's answer), against the same
 * in-page fake server with the same latency. Times are from the action to a settled DOM
 * (bench/render/page.ts); each cell is the median of the runs, libraries interleaved, each run in
 * a fresh page. A ratio is the median of paired per-run ratios (x time / our time: above 1, we
 * are faster). Each run also replays the scenarios in a second page that waits without polling,
 * traced for main-thread CPU time (bench/render/trace.ts); `--no-cpu` skips that pass.
 *
 *   npm run bench -- bench/render.bench.ts
 *   node --conditions=resource-elements-source --import tsx bench/render.bench.ts --runs 9 --rounds 3 --latency 20
 *   ... bench/render.bench.ts --profile 'update one' --library resource-elements --latency 0
 *       (CPU profile of 20 repetitions of one scenario: the functions with the most self time,
 *       and .test-results/render.cpuprofile to open in Chrome's DevTools)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { build, type Plugin } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { median } from './harness/measure.js';
import { ORIGIN } from './render/fake-server.js';
import type { LibraryName, Measurement } from './render/page.js';
import { TRACE_CATEGORIES, cpuOfTrace, type Cpu } from './render/trace.js';

// scripts/ is plain JavaScript without declarations: import it untyped and say what it gives.
const { chromiumArgs, findBrowser } = (await import('../scripts/find-browser.mjs' as string)) as {
  chromiumArgs: string[];
  findBrowser: () => string | undefined;
};
// src/ is bundled as it is built: each module's development flag becomes the inline test.
const { devFlagEsbuild } = (await import('../scripts/dev-flag.mjs' as string)) as {
  devFlagEsbuild: () => Plugin;
};

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const runs = option('runs', 7);
const rounds = option('rounds', 3);
const latencyMs = option('latency', 20);
const count = option('rows', 1000);

const cpuPass = !process.argv.includes('--no-cpu');
const libraries: LibraryName[] = [
  'resource-elements',
  'resource-elements signals',
  'limit',
  'lit-query setQueryData',
  'lit-query invalidate',
];
const scenarios = ['initial load', 'update one', 'create one', 'delete one'] as const;
type Scenario = (typeof scenarios)[number];

/** samples[library][scenario]: one Measurement per (run, round), in the same order for all. */
type Samples = Record<LibraryName, Record<Scenario, Measurement[]>>;

type CpuSamples = Record<LibraryName, Record<Scenario | 'idle', Cpu[]>>;

async function bundlePage(minify = true): Promise<string> {
  const result = await build({
    entryPoints: ['bench/render/page.ts'],
    bundle: true,
    minify,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
    conditions: ['resource-elements-source', 'module'],
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [devFlagEsbuild()],
  });
  return result.outputFiles[0]!.text;
}

async function openPage(newPage: () => Promise<Page>, script: string): Promise<Page> {
  const page = await newPage();
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/page.js') {
      return route.fulfill({ contentType: 'text/javascript', body: script });
    }
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html><body><script type="module" src="/page.js"></script></body></html>',
    });
  });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => 'renderBench' in window);
  return page;
}

/**
 * One run of every scenario for one library, in a fresh page. With `tracer`, the page waits
 * quietly and each scenario is traced for its main-thread CPU time.
 */
async function runOnce(page: Page, library: LibraryName, run: number, tracer?: Browser) {
  const out: Partial<Record<Scenario, Measurement[]>> = {};
  const cpu: Partial<Record<Scenario | 'idle', Cpu[]>> = {};
  if (tracer) await page.evaluate(() => window.renderBench.setQuiet(true));
  const step = async (scenario: Scenario | 'idle', go: () => Promise<Measurement>) => {
    if (!tracer) {
      (out[scenario as Scenario] ??= []).push(await go());
      return;
    }
    await tracer.startTracing(page, { categories: TRACE_CATEGORIES });
    const m = await go();
    (cpu[scenario] ??= []).push(cpuOfTrace(await tracer.stopTracing()));
    if (scenario !== 'idle') (out[scenario] ??= []).push(m);
  };
  await step('initial load', () =>
    page.evaluate(([l, n, ms]) => window.renderBench.load(l, n, ms), [
      library,
      count,
      latencyMs,
    ] as const),
  );
  for (let round = 0; round < rounds; round++) {
    // Different rows each round, spread over the list; the same ones for every library.
    const updated = String(1 + ((run * 7 + round * 331 + 500) % count));
    const deleted = String(1 + ((run * 13 + round * 257 + 100) % count));
    const title = `changed ${run}.${round}`;
    await step('update one', () =>
      page.evaluate(([id, t]) => window.renderBench.update(id, t), [updated, title]),
    );
    await step('create one', () =>
      page.evaluate((t) => window.renderBench.create(t), `created ${run}.${round}`),
    );
    await step('delete one', () => page.evaluate((id) => window.renderBench.remove(id), deleted));
  }
  // What the harness itself costs in quiet mode: the same wait with nothing to wait for.
  if (tracer) await step('idle', () => page.evaluate(() => window.renderBench.idle()));
  return {
    wall: out as Record<Scenario, Measurement[]>,
    cpu: cpu as Record<Scenario | 'idle', Cpu[]>,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const summarize = (values: number[]) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? String(low) : `${low}-${high}`;
};

function table(rows: string[][], header: string[]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Median of paired ratios peer / ours (samples are in the same (run, round) order). */
const pairedRatio = (ours: Measurement[], peer: Measurement[]) =>
  median(ours.map((m, i) => peer[i]!.ms / m.ms));

async function main() {
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chrome/Chromium: run node scripts/ensure-browser.mjs');
  const script = await bundlePage();
  const browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
  const samples = Object.fromEntries(
    libraries.map((l) => [l, Object.fromEntries(scenarios.map((s) => [s, []]))]),
  ) as unknown as Samples;
  const cpuSamples = Object.fromEntries(
    libraries.map((l) => [l, Object.fromEntries([...scenarios, 'idle'].map((s) => [s, []]))]),
  ) as unknown as CpuSamples;
  const context = await browser.newContext();
  const version = browser.version();
  try {
    // Run -1 warms the browser and every library up and is thrown away.
    for (let run = -1; run < runs; run++) {
      const order = libraries.map((_, i) => libraries[(i + Math.max(run, 0)) % libraries.length]!);
      for (const library of order) {
        const page = await openPage(() => context.newPage(), script);
        const result = await runOnce(page, library, Math.max(run, 0));
        await page.close();
        if (run >= 0) {
          for (const scenario of scenarios)
            samples[library][scenario].push(...result.wall[scenario]);
        }
        if (!cpuPass) continue;
        // CPU time in a page of its own: the wall-time page polls at every task while it waits.
        const quietPage = await openPage(() => context.newPage(), script);
        const quiet = await runOnce(quietPage, library, Math.max(run, 0), browser);
        await quietPage.close();
        if (run < 0) continue;
        for (const scenario of [...scenarios, 'idle'] as const) {
          cpuSamples[library][scenario].push(...quiet.cpu[scenario]);
        }
      }
      if (run >= 0) process.stdout.write(`run ${run + 1}/${runs} done\r`);
    }
  } finally {
    await browser.close();
  }
  report(samples, version);
  if (cpuPass) reportCpu(cpuSamples);
}

function report(samples: Samples, version: string) {
  console.log(
    `Render benchmark: ${count} rows, fake server latency ${latencyMs} ms, Chromium ${version} headless.`,
  );
  console.log(
    `Median time from the action to a settled DOM over ${runs} runs (initial load) or ` +
      `${runs}x${rounds} (mutations); rows = distinct row elements that rendered.\n`,
  );
  const ours = samples['resource-elements'];
  const signals = samples['resource-elements signals'];
  const limit = samples.limit;
  const setData = samples['lit-query setQueryData'];
  const invalidate = samples['lit-query invalidate'];
  const rows = scenarios.map((scenario) => {
    const cell = (s: Samples[LibraryName]) => [
      ms(median(s[scenario].map((m) => m.ms))),
      summarize(s[scenario].map((m) => m.rows)),
    ];
    return [
      scenario,
      ...cell(ours),
      ...cell(signals),
      ...cell(limit),
      ...cell(setData),
      ...cell(invalidate),
      `${pairedRatio(ours[scenario], limit[scenario]).toFixed(2)}x`,
      `${pairedRatio(signals[scenario], limit[scenario]).toFixed(2)}x`,
      `${pairedRatio(ours[scenario], setData[scenario]).toFixed(2)}x`,
      `${pairedRatio(ours[scenario], invalidate[scenario]).toFixed(2)}x`,
    ];
  });
  console.log(
    table(rows, [
      'scenario',
      'ours',
      'rows',
      'signals',
      'rows',
      'limit',
      'rows',
      'lq setQueryData',
      'rows',
      'lq invalidate',
      'rows',
      'limit/ours',
      'limit/signals',
      'setQD/ours',
      'inval./ours',
    ]),
  );
  console.log(
    '(x/ours: paired ratio of times; above 1, ours is faster. The limit is Lit by hand, no data library.)',
  );
  console.log('\nRequests per scenario (first run) and list renders (median):');
  for (const scenario of scenarios) {
    const parts = libraries.map((l) => {
      const first = samples[l][scenario][0]!;
      const lists = median(samples[l][scenario].map((m) => m.listRenders));
      const requests =
        first.requests.length > 3
          ? `${first.requests.length} requests`
          : first.requests.join(' + ');
      return `${l}: ${requests || 'none'}, list x${lists}`;
    });
    console.log(`  ${scenario.padEnd(12)}  ${parts.join(' | ')}`);
  }

  const ourMedian = (s: Scenario) => median(ours[s].map((m) => m.ms));
  const faster = (s: Scenario) =>
    Math.min(median(setData[s].map((m) => m.ms)), median(invalidate[s].map((m) => m.ms)));
  const slower = scenarios.filter((s) => ourMedian(s) > faster(s));
  const updateRatio = pairedRatio(ours['update one'], invalidate['update one']);
  const updateRows = Math.max(...ours['update one'].map((m) => m.rows));
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('\nTargets (issue 8):');
  console.log(
    `  no scenario slower than the peer's faster way: ${verdict(slower.length === 0)}` +
      (slower.length ? ` (slower: ${slower.join(', ')})` : ''),
  );
  console.log(
    `  update one >= 5x faster than lit-query invalidate-and-refetch: ${updateRatio.toFixed(2)}x, ${verdict(updateRatio >= 5)}`,
  );
  console.log(`  rows re-rendered by an update = 1: ${updateRows}, ${verdict(updateRows === 1)}`);
}

/** Main-thread time per scenario (medians), beside the limit and both lit-query ways. */
function reportCpu(cpu: CpuSamples) {
  const med = (library: LibraryName, scenario: Scenario | 'idle', kind: keyof Cpu) =>
    median(cpu[library][scenario].map((c) => c[kind]));
  console.log(
    `\nMain-thread CPU (thread) time per scenario from a Chromium trace, median ms, in a second ` +
      `page per run that does not poll while it waits:`,
  );
  const names: [LibraryName, string][] = [
    ['resource-elements', 'ours'],
    ['resource-elements signals', 'signals'],
    ['limit', 'limit'],
    ['lit-query setQueryData', 'lq setQD'],
    ['lit-query invalidate', 'lq inval.'],
  ];
  const rows = scenarios.map((scenario) => [
    scenario,
    ...names.map(([l]) => med(l, scenario, 'script').toFixed(2)),
    ...names.map(([l]) => med(l, scenario, 'task').toFixed(2)),
    `${(med('resource-elements', scenario, 'script') / med('limit', scenario, 'script')).toFixed(2)}x`,
    `${(med('resource-elements', scenario, 'task') / med('limit', scenario, 'task')).toFixed(2)}x`,
    `${(med('resource-elements signals', scenario, 'script') / med('limit', scenario, 'script')).toFixed(2)}x`,
    `${(med('resource-elements signals', scenario, 'task') / med('limit', scenario, 'task')).toFixed(2)}x`,
  ]);
  console.log(
    table(rows, [
      'scenario',
      ...names.map(([, n]) => `script ${n}`),
      ...names.map(([, n]) => `task ${n}`),
      'script ours/limit',
      'task ours/limit',
      'script signals/limit',
      'task signals/limit',
    ]),
  );
  const idle = names.map(
    ([l, n]) => `${n} ${med(l, 'idle', 'script').toFixed(2)}/${med(l, 'idle', 'task').toFixed(2)}`,
  );
  console.log(
    `(task = all main-thread work: script, style, layout, paint. Harness floor, ` +
      `the same wait with no action, script/task: ${idle.join(', ')}.)`,
  );
}

/** CPU profile of one scenario for one library: where the time goes, by function. */
async function profile(scenario: string, library: LibraryName) {
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chrome/Chromium: run node scripts/ensure-browser.mjs');
  const script = await bundlePage(false);
  const browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
  try {
    const page = await openPage(() => browser.newPage(), script);
    await page.evaluate(([l, n, ms]) => window.renderBench.load(l, n, ms), [
      library,
      count,
      latencyMs,
    ] as const);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const id = String(1 + ((i * 37 + 11) % (count - 40)));
      const m = await page.evaluate(
        ([s, id, i]) =>
          s === 'update one'
            ? window.renderBench.update(id, `profiled ${i}`)
            : s === 'create one'
              ? window.renderBench.create(`profiled ${i}`)
              : window.renderBench.remove(id),
        [scenario, id, i] as const,
      );
      times.push(m.ms);
    }
    const { profile: cpu } = await cdp.send('Profiler.stop');
    mkdirSync('.test-results', { recursive: true });
    writeFileSync('.test-results/render.cpuprofile', JSON.stringify(cpu));
    const dt = new Map<number, number>();
    cpu.samples!.forEach((node, i) => dt.set(node, (dt.get(node) ?? 0) + cpu.timeDeltas![i]!));
    const self = new Map<string, number>();
    let total = 0;
    for (const node of cpu.nodes) {
      const { functionName, url, lineNumber } = node.callFrame;
      const us = dt.get(node.id) ?? 0;
      if (functionName === '(idle)' || functionName === '(program)') continue;
      total += us;
      const name = `${functionName || '(anonymous)'} ${url ? `${url.split('/').pop()}:${lineNumber + 1}` : ''}`;
      self.set(name, (self.get(name) ?? 0) + us);
    }
    console.log(
      `${library}, ${scenario}, latency ${latencyMs} ms: median ${ms(median(times))}; busy ${(total / 1000 / times.length).toFixed(2)} ms per repetition. Self time per repetition:`,
    );
    for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`  ${(us / 1000 / times.length).toFixed(3).padStart(7)} ms  ${name}`);
    }
  } finally {
    await browser.close();
  }
}

const profiled = process.argv.indexOf('--profile');
if (profiled > 0) {
  const at = process.argv.indexOf('--library');
  await profile(
    process.argv[profiled + 1]!,
    (at > 0 ? process.argv[at + 1] : 'resource-elements') as LibraryName,
  );
} else {
  await main();
}
