/**
 * What the normalize benchmark needs from each library: the same three operations over the same
 * article payload, so the harness can time them side by side.
 */
import type { ArticleJSON } from '../fixtures/articles.js';

/** A normalized payload: the top-level result (pks) and the entity tables. */
export interface Normalized {
  result: unknown;
  entities: unknown;
}

export interface BenchLibrary {
  /** Column heading, with the version, e.g. `normalizr 3.6.2`. */
  readonly name: string;
  /** True for the library under test; every other one is a peer. */
  readonly ours?: boolean;
  normalize(input: readonly ArticleJSON[]): Normalized;
  /** Denormalizes from scratch: no state survives between calls. */
  denormalize(normalized: Normalized): unknown;
  /**
   * A fresh memo cache, as a function that denormalizes through it. Left out when the library has
   * no memoized path (its column then reads n/a).
   */
  createMemo?(): (normalized: Normalized) => unknown;
}
