// Which engine a browser test runs in, and how a test says that this engine lacks what it needs.
// The suite runs in Chromium, Firefox and WebKit (scripts/test-browsers.mjs); a check an engine
// cannot make is skipped out loud: a line in the browser logs naming the engine and the reason, and
// a skipped test that the run's summary names with its engine. Never silently.

export type Engine = 'chromium' | 'firefox' | 'webkit';

/** The engine this page runs in, read off the user agent. */
export function engine(userAgent = navigator.userAgent): Engine {
  if (/\bFirefox\//.test(userAgent)) return 'firefox';
  if (/\b(Chrome|Chromium|HeadlessChrome)\//.test(userAgent)) return 'chromium';
  return 'webkit';
}

/**
 * Skips the running test because this engine lacks `feature`, saying so in the browser logs. Use
 * it only for a real gap of the engine, listed in docs/browsers.md.
 */
export function skipInThisEngine(context: Mocha.Context, feature: string): never {
  const title = context.test?.fullTitle() ?? 'a test';
  console.warn(`skipped in ${engine()}: "${title}" needs ${feature}, which ${engine()} lacks.`);
  context.skip();
}
