/**
 * List re-read: the cost of reading a list of n entities again after one member changed, at
 * n = 1k, 10k and 30k, through the public Controller (setResponse, then getResponse). Target
 * (issue 39): at most 2 ms at 10k, and no worse than linear growth (30k within 3.3x of 10k).
 *
 *   npm run bench -- bench/list-reread.bench.ts
 */
import { Controller, Entity, createResource } from 'resource-elements';

class Row extends Entity {
  id = '';
  label = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'Row';
}

const RowResource = createResource({ path: '/rows/:id', schema: Row });

function measure(
  size: number,
  updates: number,
): { size: number; rereadMs: number; perMemberNs: number } {
  const controller = new Controller({
    fetch: () => Promise.reject(new Error('no network in this benchmark')),
  });
  const rows = Array.from({ length: size }, (_, i) => ({
    id: String(i),
    label: `row ${i}`,
    done: false,
  }));
  controller.setResponse(RowResource.getList, {}, rows);
  controller.getResponse(RowResource.getList, {});
  const times: number[] = [];
  for (let i = 0; i < updates; i++) {
    const id = String((i * 7919) % size);
    controller.setResponse(
      RowResource.get,
      { id },
      { id, label: `row ${id} v${i}`, done: i % 2 === 0 },
    );
    const t0 = performance.now();
    const { data } = controller.getResponse(RowResource.getList, {});
    times.push(performance.now() - t0);
    if ((data as Row[]).length !== size) throw new Error('the list lost members');
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  return { size, rereadMs: median, perMemberNs: (median * 1e6) / size };
}

const rows = [1_000, 10_000, 30_000].map((size) => measure(size, size >= 30_000 ? 15 : 40));
console.log('list re-read after one member changed (median)');
console.log('members     ms   ns/member');
for (const row of rows) {
  console.log(
    `${String(row.size).padStart(7)}  ${row.rereadMs.toFixed(2).padStart(6)}  ${row.perMemberNs.toFixed(0).padStart(9)}`,
  );
}
const [, tenK, thirtyK] = rows;
console.log(
  `target: 10k <= 2 ms: ${tenK!.rereadMs <= 2 ? 'met' : 'MISSED'}; ` +
    `30k / 10k = ${(thirtyK!.rereadMs / tenK!.rereadMs).toFixed(2)} (linear: 3.0, limit 3.3): ` +
    `${thirtyK!.rereadMs / tenK!.rereadMs <= 3.3 ? 'met' : 'MISSED'}`,
);
