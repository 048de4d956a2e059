/**
 * Safe access to objects keyed by data (pks, entity keys, payload fields). A key such as
 * `__proto__`, `constructor` or `hasOwnProperty` must be data, never a way to reach a prototype.
 */

/** True when `key` is an own property of `object`. */
export const hasOwn: (object: object, key: PropertyKey) => boolean = Object.hasOwn;

/** The own property `key` of `object`, never an inherited one. */
export function getOwn<T>(
  object: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return object && hasOwn(object, key) ? object[key] : undefined;
}

/**
 * Defines an own writable, enumerable, configurable property, as an assignment to a plain object
 * would, but for any key: `__proto__` too, and one an assignment cannot set (a function's `name`).
 */
export function defineOwn(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** Sets an own property; `__proto__` becomes an ordinary property instead of changing the prototype. */
export function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  if (key == '__proto__') defineOwn(object, key, value);
  else object[key] = value;
}

/**
 * The value of `map` under `key`, made by `new Make()` and set there the first time: a Map or Set
 * of maps, a WeakMap of records (`Object` makes a plain `{}`).
 * @example entry(visited, 'Todo', Map).set(input, pk);
 */
export function entry<K, V>(map: Table<K, V>, key: K, Make: new () => unknown): V {
  return map.get(key) ?? map.set(key, new Make() as V).get(key)!;
}

/** A Map or WeakMap, as `entry` uses it. */
interface Table<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): Table<K, V>;
}

/** `compute`, called once per object: for what does not change once in use (prototypes, schemas). */
export function once<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>();
  // A hit is one lookup: the map's set returns the map.
  return (key) => known.get(key) ?? known.set(key, compute(key)).get(key)!;
}

const none: ReadonlySet<string> = new Set();

const computedOf = once((proto: object): ReadonlySet<string> => {
  // The farthest prototypes first, so that the nearest definition of a key decides.
  const keys = new Set(computedBy(Object.getPrototypeOf(proto) as object | null));
  for (const [key, { get, set }] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
    if (get && !set) keys.add(key);
    else keys.delete(key);
  }
  return keys;
});

/**
 * The keys a class computes: those `proto` and its prototypes define as a getter without a
 * setter (such as `get fullName()`), the nearest definition of each key deciding. Cached per
 * prototype.
 * @example computedBy(Person.prototype) // Set { 'fullName' }
 */
export function computedBy(proto: object | null): ReadonlySet<string> {
  return proto ? computedOf(proto) : none;
}

/**
 * Copies the own enumerable properties of `source` onto `target`; a `__proto__` key is copied as
 * an ordinary property, and a key the target's class computes (`computed`: a getter without a
 * setter, such as `get fullName()`) is left to the class. Each key is set once: a setter of the
 * class sees each value once. (Object.assign is the fast path: it would misread `__proto__`, and
 * it throws on a getter without a setter, after setting the keys before it.)
 */
export function assignOwn<T extends object>(
  target: T,
  source: object,
  computed: ReadonlySet<string> = computedBy(Object.getPrototypeOf(target) as object | null),
): T {
  if (!computed.size && !hasOwn(source, '__proto__')) return Object.assign(target, source);
  for (const key of Object.keys(source)) {
    if (!computed.has(key) || hasOwn(target, key)) {
      setOwn(target as Record<string, unknown>, key, (source as Record<string, unknown>)[key]);
    }
  }
  return target;
}

/** Object.keys of a schema object, computed once: schemas do not change once in use. */
export const schemaKeys: (shape: object) => readonly string[] = once(Object.keys);
