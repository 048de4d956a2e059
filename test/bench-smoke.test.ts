// Keeps bench/normalize.bench.ts from rotting: the benchmark is never run by `npm test`, so this
// runs it in its --quick shape (a tiny payload, one call per measurement) and checks that every
// library still does the same work. It says nothing about speed.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { createArticles } from '../bench/fixtures/articles.js';
import { assertSameWork } from '../bench/harness/same-work.js';
import { libraries, run } from '../bench/normalize.bench.js';
import type { BenchLibrary } from '../bench/libraries/types.js';

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
