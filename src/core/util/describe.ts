/**
 * A URL (or a key that holds one) as a message shows it: past 300 characters it is cut, saying how
 * much more there was. Written by hand, a URL is shorter; a longer one is made by code (a query of
 * a thousand ids, a filter the user typed) and its start says which request it is. The whole URL
 * stays on the error's `url`.
 * @example shortUrl(`/search?q=${'x'.repeat(1000)}`) // '/search?q=xxx…x… (712 more characters)'
 */
export function shortUrl(url: string): string {
  return url.length > 300 ? `${url.slice(0, 300)}… (${url.length - 300} more characters)` : url;
}

/** A short, readable rendering of a value for error messages (never the whole payload). */
export function describeValue(value: unknown, max = 160): string {
  // JSON would say null for NaN and Infinity.
  if (value === undefined || typeof value === 'number') return String(value);
  const text = safeJson(value);
  if (text.length <= max) return text;
  return Array.isArray(value) ? `an array of ${value.length} items` : `${text.slice(0, max)}…`;
}

/** JSON text of a value, or its kind when it has none (a cycle, a BigInt). */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** "an array", "null", "a string"…: the kind of a value, for "expected X, got Y" messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

const RUNTIME_ERRORS: readonly unknown[] = [Error, RangeError, ReferenceError, SyntaxError];

/**
 * True for what the runtime or plain code throws (a TypeError of any kind, or a bare Error,
 * RangeError, ReferenceError or SyntaxError, or SpiderMonkey's InternalError), which a library may
 * wrap to say where it happened. An error class of the app's own is thrown on purpose, to be
 * caught by class: it is not.
 * @example isRuntimeError(new RangeError('Invalid time value')) // true
 */
export function isRuntimeError(error: unknown): boolean {
  const known = error as Error | null | undefined;
  return (
    error instanceof TypeError ||
    RUNTIME_ERRORS.includes(known?.constructor) ||
    known?.name === 'InternalError'
  );
}
