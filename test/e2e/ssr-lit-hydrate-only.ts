// The server-rendered page's client as an app that forgot `resource-elements/hydration`: Lit's
// hydrate support alone (ssr.browser.test.ts serves the page with this in place of
// demo/ssr/hydrate-support.ts).
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
