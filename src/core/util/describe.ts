/**
 * Values as messages show them: short, and never the whole payload.
 */

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/**
 * `text`, or its first `max` characters and an ellipsis, followed by `more` when cut.
 * @example cut('abcdef', 3) // 'abc…'
 */
export function cut(text: string, max: number, more = ''): string {
  return text.length > max ? `${text.slice(0, max)}…${more}` : text;
}

/**
 * A URL (or a key that holds one) as a message shows it: past 300 characters it is cut (saying
 * how much more there was, in development). Written by hand, a URL is shorter; a longer one is
 * made by code (a query of a thousand ids, a filter the user typed) and its start says which
 * request it is. The whole URL stays on the error's `url`.
 * @example shortUrl(`/search?q=${'x'.repeat(1000)}`) // '/search?q=xxx…x… (712 more characters)'
 */
export function shortUrl(url: string): string {
  return DEV() ? cut(url, 300, ` (${url.length - 300} more characters)`) : cut(url, 300);
}

/**
 * A short, readable rendering of a value for error messages: its JSON, cut past 160 characters
 * (a long array shows its first items), never the whole payload.
 * @example describeValue({ id: 1 }) // '{"id":1}'
 */
export function describeValue(value: unknown): string {
  return cut(safeJson(value), 160);
}

/**
 * JSON text of a value; its `String` where JSON has none or would say null (undefined, NaN,
 * Infinity); its kind when it cannot be encoded (a cycle, a BigInt).
 * @example safeJson(NaN) // 'NaN'; safeJson(1n) // '[object BigInt]'
 */
export function safeJson(value: unknown): string {
  try {
    return (typeof value != 'number' && JSON.stringify(value)) || String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * "an array", "null", "a string"…: the kind of a value, for "expected X, got Y" messages.
 * @example kindOf([]) // 'an array'
 */
export function kindOf(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value == 'object'
        ? 'an object'
        : `a ${typeof value}`;
}

/**
 * True for what the runtime or plain code throws (a TypeError of any kind, or a bare Error,
 * RangeError, ReferenceError or SyntaxError, or SpiderMonkey's InternalError), which a library may
 * wrap to say where it happened. An error class of the app's own is thrown on purpose, to be
 * caught by class: it is not.
 * @example isRuntimeError(new RangeError('Invalid time value')) // true
 */
export function isRuntimeError(error: unknown): boolean {
  // By name, so that an app's subclass of Error (thrown to be caught by class) does not match.
  return (
    error instanceof TypeError ||
    /^(Range|Reference|Syntax|Internal)?Error$/.test(
      (error as Error | null)?.constructor?.name as string,
    )
  );
}
