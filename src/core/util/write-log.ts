/**
 * The keys one reduction wrote, by the record they were written to (its identity after the
 * write). The store hands one in while optimistic updates are pending, so the visible state takes
 * over just those keys from the committed one (store/store.ts) instead of being rebuilt.
 */
export type WriteLog = Map<object, Set<string>>;
