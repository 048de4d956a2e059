import { entry } from '../util/own.js';

/**
 * A set of `(entity key, pk)` pairs: the entities something still needs.
 */
export class EntityMarks {
  readonly #marks = new Map<string, Set<string>>();

  /**
   * Marks one entity.
   * @example marks.add('Todo', '1');
   */
  add(key: string, pk: string): void {
    entry(this.#marks, key, Set).add(pk);
  }

  has(key: string, pk: string): boolean {
    return this.#marks.get(key)?.has(pk) ?? false;
  }
}
