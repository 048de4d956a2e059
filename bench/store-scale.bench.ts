/**
 * Store scale (issue 8): time and memory to hold 1k, 10k and 100k entities in a Controller, and
 * the cost of updating one of them (commit alone, and commit plus reading that one entity back),
 * at each size. The update cost should not grow with the store.
 *
 *   npm run bench -- bench/store-scale.bench.ts
 */
import { Controller, Entity, createResource } from 'resource-elements';
import { median } from './harness/measure.js';

class Item extends Entity {
  id = '';
  name = '';
  price = 0;
  tags: string[] = [];
  pk() {
    return this.id;
  }
  static key = 'Item';
}

const ItemResource = createResource({ path: '/items/:id', schema: Item });
const collect = (globalThis as { gc?: () => void }).gc;

function heapMB(): number {
  collect?.();
  collect?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function items(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: String(i),
    name: `item ${i}`,
    price: i % 100,
    tags: ['a', 'b'],
  }));
}

interface Row {
  size: number;
  loadMs: number;
  heapMB: number;
  updateMs: number;
  updateReadMs: number;
}

function measure(size: number, updates: number): Row {
  const controller = new Controller({
    fetch: () => Promise.reject(new Error('no network in this benchmark')),
  });
  const data = items(size);
  const before = heapMB();
  const start = performance.now();
  controller.setResponse(ItemResource.getList, {}, data);
  const loadMs = performance.now() - start;
  const held = heapMB() - before;
  const commit: number[] = [];
  const commitRead: number[] = [];
  for (let i = 0; i < updates; i++) {
    const id = String((i * 7919) % size);
    const t0 = performance.now();
    controller.setResponse(
      ItemResource.get,
      { id },
      { id, name: `renamed ${i}`, price: i, tags: ['a'] },
    );
    const t1 = performance.now();
    controller.getResponse(ItemResource.get, { id });
    const t2 = performance.now();
    commit.push(t1 - t0);
    commitRead.push(t2 - t0);
  }
  return { size, loadMs, heapMB: held, updateMs: median(commit), updateReadMs: median(commitRead) };
}

const sizes = process.argv.includes('--quick') ? [1_000, 10_000] : [1_000, 10_000, 100_000];
measure(1_000, 50); // warm up the JIT
const rows = sizes.map((size) => measure(size, 51));

const pad = (text: string, width: number) => text.padStart(width);
console.log('Store scale: one Controller, Item entities loaded with one list response.');
console.log(
  'Update = setResponse of one entity (median of 51); + read = then getResponse of it.\n',
);
console.log(
  `${'entities'.padEnd(10)}${pad('load', 12)}${pad('heap held', 12)}${pad('update', 12)}${pad('update+read', 14)}${pad('per-entity heap', 17)}`,
);
for (const row of rows) {
  console.log(
    `${row.size.toLocaleString('en').padEnd(10)}${pad(`${row.loadMs.toFixed(1)} ms`, 12)}${pad(`${row.heapMB.toFixed(1)} MB`, 12)}${pad(`${row.updateMs.toFixed(3)} ms`, 12)}${pad(`${row.updateReadMs.toFixed(3)} ms`, 14)}${pad(`${((row.heapMB * 2 ** 20) / row.size).toFixed(0)} B`, 17)}`,
  );
}
const first = rows[0]!;
const last = rows[rows.length - 1]!;
const growth = last.updateMs / first.updateMs;
console.log(
  `\nupdate cost at ${last.size.toLocaleString('en')} vs ${first.size.toLocaleString('en')} entities: ${growth.toFixed(1)}x ` +
    `(${growth <= 2 ? 'flat: met' : 'grows with the store: MISSED'})`,
);
