/**
 * The keys one reduction wrote, by the record they were written to (its identity after the
 * write). The store hands one in while optimistic updates are pending, so the visible state takes
 * over just those keys from the committed one (store/overlay.ts) instead of being rebuilt.
 */
export type WriteLog = Map<object, Set<string>>;

/** Notes in `log` (when there is one) that `key` of `record` was written. */
export function logWrite(log: WriteLog | undefined, record: object, key: string): void {
  if (log === undefined) return;
  let keys = log.get(record);
  if (keys === undefined) log.set(record, (keys = new Set()));
  keys.add(key);
}
