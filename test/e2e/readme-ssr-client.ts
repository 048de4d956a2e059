// The README's server-rendering example, the browser half (section "Server rendering"): two
// module scripts, in this order. `tsc` checks them; test/e2e/ssr.browser.test.ts runs the
// demo's own copy of this set-up (demo/ssr/hydrate-support.ts and client.ts).

// --- Server rendering: hydrate-support.js ---
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '../../src/hydration/index.js';

// --- Server rendering: client.js ---
import '../../src/index.js';
import './readme-examples.js';
