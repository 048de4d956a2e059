/**
 * Before timing anything, prove that every library does the same work: the same normalized tables
 * and a denormalized value equal to the input payload (modulo class instances), uncached and
 * through a warm memo cache, which must hand back the very same object on a hit.
 */
import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import type { ArticleJSON } from '../fixtures/articles.js';
import type { BenchLibrary } from '../libraries/types.js';

/** Class instances to plain objects (own enumerable fields), recursively, for comparison. */
export function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value === null || typeof value !== 'object') return value;
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    plain[key] = toPlain((value as Record<string, unknown>)[key]);
  return plain;
}

/** Throws an AssertionError naming the library and the step that disagreed. */
export function assertSameWork(libraries: readonly BenchLibrary[], input: readonly ArticleJSON[]) {
  const expected = toPlain(input);
  let reference: { name: string; result: unknown; entities: unknown } | undefined;
  for (const library of libraries) {
    const normalized = library.normalize(input);
    const result = toPlain(normalized.result);
    const entities = toPlain(normalized.entities);
    if (reference) {
      deepStrictEqual(
        result,
        reference.result,
        `${library.name}: normalized result differs from ${reference.name}'s`,
      );
      deepStrictEqual(
        entities,
        reference.entities,
        `${library.name}: entity tables differ from ${reference.name}'s`,
      );
    } else {
      reference = { name: library.name, result, entities };
    }
    deepStrictEqual(
      toPlain(library.denormalize(normalized)),
      expected,
      `${library.name}: denormalize does not give the input back`,
    );
    const memo = library.createMemo?.();
    if (memo) {
      const first = memo(normalized);
      deepStrictEqual(
        toPlain(first),
        expected,
        `${library.name}: memoized denormalize does not give the input back`,
      );
      strictEqual(
        memo(normalized),
        first,
        `${library.name}: a warm memo cache must return the same object`,
      );
    }
  }
}
