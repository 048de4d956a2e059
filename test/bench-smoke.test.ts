// Keeps bench/normalize.bench.ts from rotting: the benchmark is never run by `npm test`, so this
// runs it in its --quick shape (a tiny payload, one call per measurement) and checks that every
// library still does the same work. It says nothing about speed.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { createArticles } from '../bench/fixtures/articles.js';
import { assertSameWork } from '../bench/harness/same-work.js';
import { libraries, run } from '../bench/normalize.bench.js';
import type { BenchLibrary } from '../bench/libraries/types.js';
import { cpuOfTrace } from '../bench/render/trace.js';

const quiet = () => {};

describe('bench/normalize.bench.ts (smoke)', () => {
  it('the payload is deterministic and shares users across articles', () => {
    const first = createArticles({ articles: 20 });
    assert.deepEqual(createArticles({ articles: 20 }), first);
    assert.notDeepEqual(createArticles({ articles: 20, seed: 1 }), first);
    const authors = new Set(first.map((article) => article.author.id));
    assert.ok(authors.size < first.length, 'some users write several articles');
  });

  it('every library gives the same normalized tables and the input back, and is timed', () => {
    const report = run({ articles: 4, runs: 1, timeBoxMs: 0, log: quiet });
    assert.deepEqual(
      report.libraries,
      libraries.map((library) => library.name),
    );
    for (const row of report.rows) {
      row.cells.forEach((cell, l) => {
        if (row.operation === 'denormalize (cached)' && !libraries[l]!.createMemo) {
          assert.equal(cell, undefined, `${libraries[l]!.name} has no memo cache`);
        } else {
          assert.ok(cell && cell.median > 0, `${row.operation} of ${libraries[l]!.name} was timed`);
        }
      });
      assert.ok(row.bestPeerRatio! > 0, `${row.operation}: ours is compared with the best peer`);
    }
  });

  it('the same-work check catches a library that gives something else back', () => {
    const input = createArticles({ articles: 3 });
    const [ours] = libraries;
    const liar: BenchLibrary = {
      ...ours!,
      name: 'liar',
      denormalize: (normalized) => {
        const value = ours!.denormalize(normalized) as { title: string }[];
        return value.map((article) => ({ ...article, title: 'not the input' }));
      },
    };
    assert.throws(() => assertSameWork([ours!, liar], input), /liar: denormalize/);
  });
});

describe('bench/store-writes.bench.ts (smoke)', () => {
  it('times every way, library and store size, and checks that each write landed', async () => {
    const { libraries, run } = await import('../bench/store-writes.bench.js');
    const report = await run({
      sizes: [0, 30],
      writes: 6,
      batch: 3,
      runs: 1,
      gcResponses: 25,
      log: quiet,
    });
    assert.deepEqual(
      report.libraries,
      libraries.map((library) => library.name),
    );
    for (const way of ['setResponse', 'fetch'] as const) {
      report.cells[way].forEach((row, l) => {
        row.forEach((cell, s) => {
          assert.ok(cell.perWriteMs > 0, `${way}, ${report.libraries[l]}, ${report.sizes[s]}`);
          // the stored responses, the untimed first write, then the timed ones
          assert.equal(cell.heldAfter, report.sizes[s]! + 1 + 6);
        });
      });
      assert.ok(report.growth[way].every((ratio) => ratio > 0));
    }
    // timeOptimistic throws unless the pending update shows before and after the writes
    for (const shape of ['responses', 'list'] as const) {
      assert.equal(report.optimistic[shape].length, 2, shape);
      assert.ok(
        report.optimistic[shape].every((ms) => ms > 0),
        shape,
      );
    }
    // timeTabSync throws unless the last write's message held just its own entity
    assert.equal(report.tabSync.length, 2);
    assert.ok(report.tabSync.every((ms) => ms > 0));
    assert.equal(report.gc.responses, 25);
    assert.equal(report.gc.landed, true, 'the responses were stored before the pass');
    assert.equal(report.gc.passes, 1);
    assert.equal(report.gc.after, 0, 'the pass dropped every unused response');
    assert.equal(report.gc.entitiesAfter, 0, 'and their entities');
  });

  it('stops on a library whose writes do not land', async () => {
    const { libraries, run } = await import('../bench/store-writes.bench.js');
    const [ours] = libraries;
    const liar = {
      name: 'liar',
      create(state?: unknown) {
        const subject = ours!.create(state);
        return { ...subject, set: () => {} };
      },
    };
    await assert.rejects(
      run({
        libraries: [liar],
        sizes: [0],
        writes: 2,
        batch: 2,
        runs: 1,
        gcResponses: 1,
        log: quiet,
      }),
      /liar: setResponse left 0 responses, not 3/,
    );
  });
});

describe('bench/render/trace.ts (smoke)', () => {
  const main = { pid: 1, tid: 7 };
  const trace = (events: object[]) =>
    JSON.stringify({
      traceEvents: [
        { name: 'thread_name', ph: 'M', ...main, ts: 0, args: { name: 'CrRendererMain' } },
        { name: 'thread_name', ph: 'M', pid: 1, tid: 8, ts: 0, args: { name: 'Compositor' } },
        ...events,
      ],
    });

  it('adds the thread time of outermost events on the main thread only', () => {
    const cpu = cpuOfTrace(
      trace([
        // a task with a microtask run inside, and a function call nested in that
        { name: 'ThreadControllerImpl::RunTask', ph: 'X', ...main, ts: 100, dur: 900, tdur: 500 },
        { name: 'RunMicrotasks', ph: 'X', ...main, ts: 100, dur: 400, tdur: 300 },
        { name: 'FunctionCall', ph: 'X', ...main, ts: 150, dur: 100, tdur: 80 },
        { name: 'Layout', ph: 'X', ...main, ts: 600, dur: 200, tdur: 150 },
        // script outside any task (a message from the driver)
        { name: 'FunctionCall', ph: 'X', ...main, ts: 2_000, dur: 300, tdur: 200 },
        // another thread's work is not the page's main thread
        { name: 'FunctionCall', ph: 'X', pid: 1, tid: 8, ts: 100, dur: 5_000, tdur: 5_000 },
      ]),
    );
    assert.equal(cpu.script, (300 + 200) / 1000);
    assert.equal(cpu.task, (500 + 200) / 1000);
  });
});
