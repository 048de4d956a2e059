/**
 * Safe access to objects keyed by data (pks, entity keys, payload fields). A key such as
 * `__proto__`, `constructor` or `hasOwnProperty` must be data, never a way to reach a prototype.
 */

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** True when `key` is an own property of `object`. */
export function hasOwn(object: object, key: PropertyKey): boolean {
  return hasOwnProperty.call(object, key);
}

/** The own property `key` of `object`, never an inherited one. */
export function getOwn<T>(
  object: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return object !== undefined && hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Sets an own property; `__proto__` becomes an ordinary property instead of changing the prototype. */
export function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}

/**
 * Copies the own enumerable properties of `source` onto `target`; a `__proto__` key is copied as
 * an ordinary property. (Object.assign is the fast path: it would only misread `__proto__`.)
 */
export function assignOwn<T extends object>(target: T, source: object): T {
  if (!hasOwnProperty.call(source, '__proto__')) return Object.assign(target, source);
  for (const key of Object.keys(source)) {
    setOwn(target as Record<string, unknown>, key, (source as Record<string, unknown>)[key]);
  }
  return target;
}
