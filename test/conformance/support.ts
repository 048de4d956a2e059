/**
 * Shared pieces of the conformance suite: tests translated from the reference library's own test
 * files (reactive/data-client) onto our API. Each describe names the source file, each test the
 * original title. A test our contract decides otherwise is kept, skipped, and says which line.
 */
import { Entity } from '../../src/core/index.js';

/** Skip options for a reference test our contract decides otherwise (shown in the report). */
export function differs(line: string): { skip: string } {
  return { skip: `contract differs: ${line}` };
}

/** A JSON copy: compares structure without prototypes (instances are checked separately). */
export function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The reference suite's base entity: pk is the id, or the key in the parent. */
export abstract class IDEntity extends Entity {
  id = '';
  pk(_parent?: unknown, key?: string): string | undefined {
    return this.id || key;
  }
}

/** Normalize results without the time-dependent meta table. */
export function withoutMeta<T extends { entitiesMeta?: unknown }>(
  result: T,
): Omit<T, 'entitiesMeta'> {
  const { entitiesMeta: _meta, ...rest } = result;
  return rest;
}
