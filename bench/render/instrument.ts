/** Render counters: each row element and each list element reports its updates here. */
export const renders = {
  list: 0,
  rows: new Map<string, number>(),
};

export function noteRowRender(id: string): void {
  renders.rows.set(id, (renders.rows.get(id) ?? 0) + 1);
}

export function noteListRender(): void {
  renders.list += 1;
}

/** A copy of the counters, to compare with later. */
export function snapshot() {
  return { list: renders.list, rows: new Map(renders.rows) };
}

/** How many distinct rows rendered, how many row renders in all, and list renders since `before`. */
export function since(before: ReturnType<typeof snapshot>) {
  let rows = 0;
  let rowRenders = 0;
  for (const [id, count] of renders.rows) {
    const delta = count - (before.rows.get(id) ?? 0);
    if (delta > 0) {
      rows += 1;
      rowRenders += delta;
    }
  }
  return { rows, rowRenders, listRenders: renders.list - before.list };
}
