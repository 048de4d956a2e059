/**
 * The shared vocabulary of schemas: what every schema implements, the INVALID marker, and the
 * types that turn a schema into the type of its normalized and denormalized values.
 */
import type { Entity } from './entity.js';

/**
 * Marks an entity (or a whole read) as invalid: it must not be shown. An INVALID read is fetched;
 * one still INVALID right after its own answer is an error, never another request.
 */
export const INVALID: unique symbol = Symbol.for('resource-elements.INVALID');
/** The type of the `INVALID` marker. */
export type INVALID = typeof INVALID;

/** A stored entity: its plain data, or INVALID after `schema.Invalidate`. */
export type StoredEntity = Record<string, unknown> | INVALID;

/** entities[key][pk]: every stored entity, by entity key and primary key. */
export type EntityTable = Record<string, Record<string, StoredEntity>>;

/** When an entity was written, for "older never overwrites newer". */
export interface EntityMeta {
  /** When the request that brought it was started (ms, from the controller's clock). */
  fetchedAt: number;
  /** When it was written to the store. */
  date: number;
  expiresAt: number;
  /**
   * Set by a write that carried only some fields (a partial push): those fields, as of
   * `fetchedAt`. Every other field is as of `restAt`, so an older answer still in flight keeps
   * its word on them.
   */
  fields?: readonly string[];
  /** When the request that brought the fields not in `fields` was started. */
  restAt?: number;
}

/** Meta of every stored entity, by entity key, then pk. */
export type EntityMetaTable = Record<string, Record<string, EntityMeta>>;

/** The parts of the store that normalize reads and writes. */
export interface NormalizedStore {
  entities: EntityTable;
  entitiesMeta: EntityMetaTable;
}

/** What normalize() returns: the result (pks in place of entities) and the whole new tables. */
export interface NormalizeResult<R = unknown> extends NormalizedStore {
  result: R;
}

/** Arguments of the call that produced the data: `[urlParams, body?]`. */
export type Args = readonly unknown[];

/**
 * A schema.Union's type function: the member type name of `input`, which is at `key` in `parent`
 * (both undefined when the Union chooses from a read's URL params).
 * @example const kind: SchemaAttribute = (input, parent, key) => String(input.kind)
 */
export type SchemaAttribute = (
  input: Record<string, unknown>,
  parent: unknown,
  key: string | undefined,
) => string;

/** The class side of an Entity subclass. */
export type EntityClass<T extends Entity = Entity> = (abstract new (...args: any[]) => T) &
  Omit<typeof Entity, 'prototype'>;

/**
 * How a field's JSON value becomes what readers see: `Date` (an ISO string to a `Date`), a class
 * with a static `fromJSON(value)`, or a function of the value. The store keeps the JSON value.
 * @example static schema = { created: Date, price: Money, tags: (text: string) => text.split(',') };
 */
export type FieldType = DateConstructor | FromJSON | ((value: any) => unknown);

/** A class whose values are built from a field's JSON, as a field type. */
export interface FromJSON<T = unknown> {
  /** Builds the value readers see from the field's JSON value. */
  fromJSON(value: any): T;
}

/** Any schema: an Entity class, a schema instance, `[S]`, a field type, or an object of members. */
export type Schema =
  | EntityClass
  | SchemaInstance
  | readonly Schema[]
  | FieldType
  | { readonly [key: string]: Schema | unknown };

/**
 * Entities nested deeper than this are refused with a NormalizeError, before anything is stored:
 * no real payload nests this far, and reading it back (which recurses once per level too) stays
 * inside the call stack. Plain nesting (objects, arrays) is limited to four times as many levels.
 */
export const MAX_DEPTH = 1000;

/**
 * Set on an optimistic value whose entity has no pk yet (a create the server assigns the id of):
 * normalize stores it under this placeholder pk until the server's answer replaces it.
 */
export const PLACEHOLDER_PK: unique symbol = Symbol.for('resource-elements.placeholderPk');

/** What schema instances (Array, Object, Values, Union, Collection, Invalidate) implement. */
export interface SchemaInstance {
  /**
   * Turns `input` (a response value) into what is stored, visiting nested schemas with `visit`.
   * `parent` and `key` say where it sits; `args` are the call's.
   */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: Args,
    visit: Visit,
    delegate: NormalizeDelegate,
  ): unknown;
  /** Turns a stored value back into what readers see, nested schemas through `unvisit`. */
  denormalize(input: unknown, args: Args, unvisit: Unvisit): unknown;
  /**
   * Hands each nested (schema, normalized value) to `walk`; `read(key, pk)` reads a stored
   * entity or list (marking it reached). Used to find every entity a result reaches.
   */
  walk?(value: unknown, walk: WalkStored, read: ReadStored): void;
  /**
   * True when the normalized value is a pk of `entities[key]` (a Collection's list), which the
   * denormalizer reads and memoizes like an entity, through `denormalizeStored`.
   */
  readonly readsStore?: boolean;
  /** The store key of what it reads (with `readsStore`). */
  readonly key?: string;
  /**
   * Schemas with one identity share their cached reads (a Collection and its getPage variant
   * read the same lists); defaults to the schema itself.
   */
  readonly storeIdentity?: object;
  /** With `readsStore`: reads the stored value found under `key` and the pk. */
  denormalizeStored?(stored: unknown, unvisit: Unvisit): unknown;
}

/** Walks a nested normalized value with its schema. */
export type WalkStored = (schema: unknown, value: unknown) => void;
/** Reads a stored entity or list (undefined when missing or INVALID). */
export type ReadStored = (key: string, pk: string) => unknown;

/** Normalizes a nested value with the given schema. */
export type Visit = (
  schema: unknown,
  value: unknown,
  parent: unknown,
  key: string | undefined,
  args: Args,
  /** Where the value is, for error paths, when not at `key` (an array member's index). */
  at?: string | number,
) => unknown;
/** Denormalizes a nested value with the given schema. */
export type Unvisit = (schema: unknown, input: unknown) => unknown;

/** How schemas read and write the store while normalizing. */
export interface NormalizeDelegate {
  /** The stored entity, or undefined. */
  getEntity(key: string, pk: string): StoredEntity | undefined;
  /** Every stored entity of one key (read-only view). */
  getEntities(key: string): Readonly<Record<string, StoredEntity>> | undefined;
  /** Writes an entity, merging with what is stored by the rules of `entity` (or plainly when absent). */
  mergeEntity(
    entity: EntityClass | undefined,
    key: string,
    pk: string,
    value: Record<string, unknown>,
  ): void;
  /**
   * Replaces an entity outright (collections); with `ifNewer`, only when the stored one is not
   * from a later request.
   */
  setEntity(
    key: string,
    pk: string,
    value: Record<string, unknown> | INVALID,
    ifNewer?: boolean,
  ): void;
  /** Marks an entity INVALID. */
  invalidate(key: string, pk: string): void;
  /** Throws a NormalizeError: `message`, and where in the response the walk is. */
  fail(message: string): never;
  /**
   * Throws what a schema's own code (process, validate, pk) threw, said of `what` and where;
   * an error class of the app's own passes through as it is.
   */
  failed(error: unknown, what: string): never;
  /**
   * Each entity input object with the pk it was stored under, by entity key: an input listed in
   * several places (built in code, or linked back by a process()) is walked once, and a cycle
   * stops where it has been instead of recursing forever.
   */
  readonly visited: Map<string, Map<object, string>>;
}

// ---- Types of values ----

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** Anything schema-shaped whose denormalized type is given by its `_denormalized` brand. */
export interface Denormalizes<T> {
  readonly _denormalized?: T;
}

/**
 * An entity as a read gives it: a field whose `static schema` names an entity class may read as
 * `undefined` (a reference to an entity the store does not hold reads as missing, whatever the
 * field's default), so its type says so; the other fields are as the class declares them.
 */
export type EntityRead<E, U> = E extends { readonly schema: infer N }
  ? string extends keyof N
    ? U
    : [NestedEntityKeys<N, U>] extends [never]
      ? U
      : Omit<U, NestedEntityKeys<N, U>> & {
          -readonly [K in NestedEntityKeys<N, U>]:
            Denormalize<N[K]> | Exclude<U[K], object> | undefined;
        }
  : U;

/** The fields of `U` whose schema in `N` is an entity class. */
type NestedEntityKeys<N, U> = {
  [K in keyof N & keyof U]: N[K] extends abstract new (...args: any[]) => Entity ? K : never;
}[keyof N & keyof U];

/** The type of a schema's denormalized value: Entity instances in place of pks. */
export type Denormalize<S> = S extends abstract new (...args: any[]) => infer U
  ? U extends Entity
    ? EntityRead<S, U>
    : S extends FromJSON<infer R>
      ? R
      : U
  : S extends FromJSON<infer R>
    ? R
    : S extends (value: any) => infer R
      ? R
      : S extends Denormalizes<infer T>
        ? T
        : S extends readonly (infer Inner)[]
          ? [Inner] extends [never]
            ? unknown[] // `[]`: a default value, the response's array as it is
            : Denormalize<Inner>[]
          : S extends Primitive
            ? S
            : S extends object
              ? { -readonly [K in keyof S]: Denormalize<S[K]> }
              : S;
