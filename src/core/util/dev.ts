/**
 * True unless the bundler replaced `process.env.NODE_ENV` with "production" (or Node runs with it):
 * development-only warnings are checked against it so they cost nothing in production builds.
 */
export const DEV: boolean =
  typeof process === 'undefined' ||
  typeof process.env === 'undefined' ||
  process.env.NODE_ENV !== 'production';
