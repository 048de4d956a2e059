/** A short, readable rendering of a value for error messages (never the whole payload). */
export function describeValue(value: unknown, max = 160): string {
  // JSON would say null for NaN and Infinity.
  if (value === undefined || typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const text = safeJson(value);
    return text.length > max ? `an array of ${value.length} items` : text;
  }
  const text = safeJson(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function safeJson(value: unknown): string {
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
