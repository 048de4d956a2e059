/**
 * The one check of an endpoint's options (and the Controller's `retry`), development only: each
 * caller guards the call with its module's development flag, built as the inline
 * `process.env.NODE_ENV` test, so production bundles drop it. In production an option that
 * cannot work is ignored or read as best it can be (no timeout, no retry, data stale at once),
 * never a crash.
 */
export function checkOptions(options: {
  readonly name: string;
  readonly dataExpiryLength?: unknown;
  readonly errorExpiryLength?: unknown;
  readonly pollFrequency?: unknown;
  readonly timeout?: unknown;
  readonly retry?: unknown;
}): void {
  const fail = (what: string, value: unknown) => {
    throw new TypeError(`${options.name}: ${what}: got ${String(value)}.`);
  };
  for (const name of ['dataExpiryLength', 'errorExpiryLength', 'pollFrequency'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && value >= 0)) {
      fail(`${name} must be a number of ms (0 or more)`, value);
    }
  }
  const { timeout, retry } = options;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) {
    fail('timeout must be a positive number of ms (or undefined for none)', timeout);
  }
  if (
    retry !== undefined &&
    typeof retry !== 'function' &&
    !(typeof retry === 'number' && retry >= 0)
  ) {
    fail('retry must be a count or a function (failures, error) => boolean | delayMs', retry);
  }
}
