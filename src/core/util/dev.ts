/**
 * Development mode: true in Node unless `NODE_ENV=production`, and in a bundle whose bundler replaced
 * `process.env.NODE_ENV` with anything but "production". False where `process` does not exist (a
 * browser loading the files unbundled), as in Lit's default build.
 *
 * The shape matters: once a production bundler replaces `process.env.NODE_ENV`, both branches are
 * the literal `false`, so Vite, Rollup, esbuild and webpack fold `DEV` to `false` and drop every
 * `if (DEV …)` block with its warning text (test/consumer checks the bundles). `typeof` keeps it from
 * throwing where `process` is undefined.
 */
export const DEV: boolean =
  typeof process !== 'undefined' ? process.env.NODE_ENV !== 'production' : false;
