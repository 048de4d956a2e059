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
 * an ordinary property, and a key the target's class computes (a getter without a setter, such as
 * `get fullName()`) is left to the class. (Object.assign is the fast path: it would misread
 * `__proto__`, and it throws on a getter without a setter.)
 */
export function assignOwn<T extends object>(target: T, source: object): T {
  if (!hasOwnProperty.call(source, '__proto__')) {
    try {
      return Object.assign(target, source);
    } catch {
      // Copied again key by key below: a key the class computes is skipped, any other error
      // (a setter of the class that throws) is thrown again there.
    }
  }
  for (const key of Object.keys(source)) {
    if (!computedBy(target, key)) {
      setOwn(target as Record<string, unknown>, key, (source as Record<string, unknown>)[key]);
    }
  }
  return target;
}

/** True when `key` is not own on `object` and its prototypes define it as a getter only. */
function computedBy(object: object, key: string): boolean {
  if (hasOwnProperty.call(object, key)) return false;
  for (
    let proto = Object.getPrototypeOf(object);
    proto !== null;
    proto = Object.getPrototypeOf(proto)
  ) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, key);
    if (descriptor !== undefined)
      return descriptor.get !== undefined && descriptor.set === undefined;
  }
  return false;
}
